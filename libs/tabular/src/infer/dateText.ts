import { isCalendarDate } from "./calendar.ts"

/**
 * Reads a trimmed cell as a date or a date-time. Which of the two leading parts of `1/2/2020` is the month is left
 * open here (both readings are reported); the column decides (see DateEvidence). Times may carry seconds, a
 * fraction (kept to the millisecond, further digits dropped), AM/PM (the US forms), and `Z` or an offset, which is
 * applied to reach UTC; a time without a zone is taken as UTC, since the file gives no better answer.
 */

export const isoForm = 1
export const slashForm = 2
export const dotForm = 4
export const dashForm = 8

export interface DateReading {
  /** One of the forms above; 0: not a date. */
  form: number
  year: number
  /** ISO: month and day. Other forms: the two leading parts as written, order unresolved. */
  first: number
  second: number
  hasTime: boolean
  /** Milliseconds since midnight in UTC terms, offset already subtracted (may fall outside one day). */
  timeOfDay: number
  /** Already written exactly as the normalised table renders it. */
  canonical: boolean
  /** How it was written, for writing other values the same way (DateFormEvidence): digits of the two leading parts. */
  firstDigits: number
  secondDigits: number
  /** The character between date and time (`T` or a space), the hour as written and its digits. */
  timeSeparator: string
  hour: number
  hourDigits: number
  hasSeconds: boolean
  /** Digits of the fraction of a second as written (0: none). */
  fractionDigits: number
  /** `AM`/`PM` as written: 0 none, upper or lower case; whether a space stood before it. */
  meridiem: number
  meridiemSpaced: boolean
  /** The zone as written (one of the zone forms below) and its offset in minutes east of UTC. */
  zone: number
  offsetMinutes: number
}

export const noMeridiem = 0
export const upperMeridiem = 1
export const lowerMeridiem = 2

export const noZone = 0
export const zuluZone = 1
/** `+02:00` */
export const colonOffset = 2
/** `+0200` */
export const compactOffset = 3
/** `+02` */
export const hourOffset = 4
export const zoneForms = 5

export const emptyDateReading = (): DateReading => ({
  form: 0,
  year: 0,
  first: 0,
  second: 0,
  hasTime: false,
  timeOfDay: 0,
  canonical: false,
  firstDigits: 2,
  secondDigits: 2,
  timeSeparator: "T",
  hour: 0,
  hourDigits: 2,
  hasSeconds: false,
  fractionDigits: 0,
  meridiem: noMeridiem,
  meridiemSpaced: false,
  zone: noZone,
  offsetMinutes: 0
})

const time = String.raw`(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:( ?)([AaPp][Mm]))?(Z|[+-]\d{2}(?::?\d{2})?)?`
const isoDate = new RegExp(String.raw`^(\d{4})-(\d{2})-(\d{2})(?:([T ])${time})?$`)
const partsDate = new RegExp(String.raw`^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})(?:([T ])${time})?$`)

const isDigit = (code: number): boolean => code >= 48 && code <= 57

/**
 * Reads the trimmed cell `text` from `start` to `end` (the whole of a cell, or a CSV field in place, which the
 * common forms read without a string of it); fills `reading` (reused across cells) and returns it.
 */
export const readDateIn = (text: string, start: number, end: number, reading: DateReading): DateReading => {
  reading.form = 0
  if (end - start < 8 || !isDigit(text.charCodeAt(start))) return reading
  if (readCanonical(text, start, end, reading) || readPartsDateOnly(text, start, end, reading)) return reading
  return readGeneral(text.slice(start, end), reading)
}

/** The forms the regular expressions read: times other than the canonical one, and ISO dates off the fast path. */
const readGeneral = (text: string, reading: DateReading): DateReading => {
  const iso = isoDate.exec(text)
  if (iso !== null) {
    const year = Number(iso[1])
    const month = Number(iso[2])
    const day = Number(iso[3])
    if (!isCalendarDate(year, month, day)) return reading
    if (!readTime(iso, 4, reading)) return reading
    reading.form = isoForm
    reading.year = year
    reading.first = month
    reading.second = day
    reading.firstDigits = 2
    reading.secondDigits = 2
    reading.canonical = !reading.hasTime || isCanonicalDateTime(iso)
    return reading
  }
  const parts = partsDate.exec(text)
  if (parts === null) return reading
  if (!readTime(parts, 5, reading)) return reading
  reading.form = parts[2] === "/" ? slashForm : parts[2] === "." ? dotForm : dashForm
  reading.first = Number(parts[1])
  reading.second = Number(parts[3])
  reading.year = Number(parts[4])
  reading.firstDigits = parts[1]!.length
  reading.secondDigits = parts[3]!.length
  reading.canonical = false
  return reading
}

/** Digits of `text` from `from` to `to` as a number; NaN when any is not a digit. */
const digitsAt = (text: string, from: number, to: number): number => {
  let value = 0
  for (let index = from; index < to; index++) {
    const digit = text.charCodeAt(index) - 48
    if (digit < 0 || digit > 9) return Number.NaN
    value = value * 10 + digit
  }
  return value
}

/**
 * `YYYY-MM-DD` and `YYYY-MM-DDTHH:mm:ss.sssZ` (what most files and every normalised table hold) read position by
 * position, without the regular expressions. False: not one of these two, take the general path.
 */
const readCanonical = (text: string, start: number, end: number, reading: DateReading): boolean => {
  const length = end - start
  const hasTime = length === 24
  if (length !== 10 && !hasTime) return false
  if (text.charCodeAt(start + 4) !== 45 || text.charCodeAt(start + 7) !== 45) return false
  const year = digitsAt(text, start, start + 4)
  const month = digitsAt(text, start + 5, start + 7)
  const day = digitsAt(text, start + 8, start + 10)
  if (!isCalendarDate(year, month, day)) return false
  let timeOfDay = 0
  if (hasTime) {
    if (!isCanonicalTimeLayout(text, start)) return false
    const hour = digitsAt(text, start + 11, start + 13)
    const minute = digitsAt(text, start + 14, start + 16)
    const second = digitsAt(text, start + 17, start + 19)
    const millisecond = digitsAt(text, start + 20, start + 23)
    if (!(hour <= 23 && minute <= 59 && second <= 59 && millisecond >= 0)) return false
    timeOfDay = ((hour * 60 + minute) * 60 + second) * 1000 + millisecond
    writtenAsCanonicalTime(reading, hour)
  }
  reading.form = isoForm
  reading.year = year
  reading.first = month
  reading.second = day
  reading.hasTime = hasTime
  reading.timeOfDay = timeOfDay
  reading.canonical = true
  return true
}

/** The `T`, `:`, `:`, `.` and `Z` of `YYYY-MM-DDTHH:mm:ss.sssZ` starting at `start`. */
const isCanonicalTimeLayout = (text: string, start: number): boolean =>
  text.charCodeAt(start + 10) === 84 && text.charCodeAt(start + 13) === 58 && text.charCodeAt(start + 16) === 58 &&
  text.charCodeAt(start + 19) === 46 && text.charCodeAt(start + 23) === 90

const separatorForm = (code: number): number =>
  code === 47 /* / */ ? slashForm : code === 46 /* . */ ? dotForm : code === 45 /* - */ ? dashForm : 0

/**
 * `MM/DD/YYYY` and the other two-part forms without a time (`partsDate` with no time), read position by position:
 * on the 100 MB mixed CSV the regular expression took ~1.2 % of the profile for one such column of ten.
 */
const readPartsDateOnly = (text: string, start: number, end: number, reading: DateReading): boolean => {
  const length = end - start
  if (length < 8 || length > 10) return false
  const firstDigits = isDigit(text.charCodeAt(start + 1)) ? 2 : 1
  const separator = text.charCodeAt(start + firstDigits)
  const form = separatorForm(separator)
  if (form === 0) return false
  const secondDigits = length - firstDigits - 6
  if (secondDigits < 1 || secondDigits > 2) return false
  const secondEnd = start + firstDigits + 1 + secondDigits
  if (text.charCodeAt(secondEnd) !== separator) return false
  const first = digitsAt(text, start, start + firstDigits)
  const second = digitsAt(text, start + firstDigits + 1, secondEnd)
  const year = digitsAt(text, secondEnd + 1, end)
  if (Number.isNaN(first) || Number.isNaN(second) || Number.isNaN(year)) return false
  reading.form = form
  reading.year = year
  reading.first = first
  reading.second = second
  reading.firstDigits = firstDigits
  reading.secondDigits = secondDigits
  reading.hasTime = false
  reading.timeOfDay = 0
  reading.canonical = false
  return true
}

/** The shape of `HH:mm:ss.sssZ` after a `T`. */
const writtenAsCanonicalTime = (reading: DateReading, hour: number): void => {
  reading.timeSeparator = "T"
  reading.hour = hour
  reading.hourDigits = 2
  reading.hasSeconds = true
  reading.fractionDigits = 3
  reading.meridiem = noMeridiem
  reading.zone = zuluZone
  reading.offsetMinutes = 0
}

/** `match[at]` is the date/time separator, then hour, minute, second, fraction, AM/PM, zone. */
const readTime = (match: RegExpExecArray, at: number, reading: DateReading): boolean => {
  reading.hasTime = match[at] !== undefined
  reading.timeOfDay = 0
  if (!reading.hasTime) return true
  let hour = Number(match[at + 1])
  const minute = Number(match[at + 2])
  const second = match[at + 3] === undefined ? 0 : Number(match[at + 3])
  const fraction = match[at + 4]
  const meridiem = match[at + 6]
  const zone = match[at + 7]
  if (meridiem !== undefined) {
    if (hour < 1 || hour > 12) return false
    const afternoon = meridiem.toLowerCase() === "pm"
    hour = (hour % 12) + (afternoon ? 12 : 0)
  }
  if (hour > 23 || minute > 59 || second > 59) return false
  const millisecond = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, "0"))
  const offset = zone === undefined ? 0 : offsetMinutes(zone)
  if (Number.isNaN(offset)) return false
  reading.timeSeparator = match[at]!
  reading.hour = Number(match[at + 1])
  reading.hourDigits = match[at + 1]!.length
  reading.hasSeconds = match[at + 3] !== undefined
  reading.fractionDigits = fraction?.length ?? 0
  reading.meridiem = meridiem === undefined ? noMeridiem : meridiem === meridiem.toUpperCase() ? upperMeridiem : lowerMeridiem
  reading.meridiemSpaced = match[at + 5] === " "
  reading.zone = zoneFormOf(zone)
  reading.offsetMinutes = offset
  reading.timeOfDay = ((hour * 60 + minute - offset) * 60 + second) * 1000 + millisecond
  return true
}

const zoneFormOf = (zone: string | undefined): number => {
  if (zone === undefined) return noZone
  if (zone === "Z") return zuluZone
  return zone.length === 3 ? hourOffset : zone.includes(":") ? colonOffset : compactOffset
}

const offsetMinutes = (zone: string): number => {
  if (zone === "Z") return 0
  const sign = zone.charCodeAt(0) === 45 ? -1 : 1
  const digits = zone.slice(1).replace(":", "")
  const hours = Number(digits.slice(0, 2))
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0
  return hours > 18 || minutes > 59 ? Number.NaN : sign * (hours * 60 + minutes)
}

/** `YYYY-MM-DDTHH:mm:ss.sssZ`, the rendering of a normalised datetime. */
const isCanonicalDateTime = (iso: RegExpExecArray): boolean =>
  iso[4] === "T" &&
  iso[5]?.length === 2 &&
  iso[7] !== undefined &&
  iso[8]?.length === 3 &&
  iso[10] === undefined &&
  iso[11] === "Z"
