import { millisecondsPerDay } from "../infer/calendar.ts"

/**
 * Writes instants in a layout such as `M/D/YYYY`, `DD.MM.YYYY HH:mm` or `YYYY-MM-DDTHH:mm:ss.SSSXXX`: `YYYY` year,
 * `MM`/`M` month, `DD`/`D` day, `HH`/`H` hour of 24 and `hh`/`h` of 12 (two digits / as few as needed), `mm` minutes,
 * `ss` seconds, `S`… digits of the fraction of a second, `A`/`a` AM/PM in upper or lower case, `XXX`/`XX`/`X` the
 * offset as `+02:00`/`+0200`/`+02`; anything else (`T`, `Z`, separators) is written as it is.
 *
 * Compiled once per column into a list of part writers: a download writes every value of the column, and date-fns'
 * `format` re-reads its pattern and builds a local-time Date per call (and needs date-fns-tz for UTC and offsets).
 */
export type InstantWriter = (epochMilliseconds: number) => string

const tokens = /YYYY|MM|M|DD|D|HH|H|hh|h|mm|ss|S+|XXX|XX|X|A|a|[^YMDHhmsSXAa]+|./g

interface Parts {
  year: number
  month: number
  day: number
  hour: number
  minute: number
  second: number
  millisecond: number
}

type PartWriter = (parts: Parts) => string

const two = (value: number): string => (value < 10 ? `0${value}` : String(value))
const four = (value: number): string => (value >= 0 && value < 1000 ? String(value).padStart(4, "0") : String(value))

const offsetWriter = (offsetMinutes: number, colon: boolean, minutes: boolean): string => {
  const sign = offsetMinutes < 0 ? "-" : "+"
  const magnitude = Math.abs(offsetMinutes)
  const hours = two(Math.floor(magnitude / 60))
  return minutes ? `${sign}${hours}${colon ? ":" : ""}${two(magnitude % 60)}` : `${sign}${hours}`
}

const partWriter = (token: string, offsetMinutes: number): PartWriter => {
  switch (token) {
    case "YYYY":
      return (parts) => four(parts.year)
    case "MM":
      return (parts) => two(parts.month)
    case "M":
      return (parts) => String(parts.month)
    case "DD":
      return (parts) => two(parts.day)
    case "D":
      return (parts) => String(parts.day)
    case "HH":
      return (parts) => two(parts.hour)
    case "H":
      return (parts) => String(parts.hour)
    case "hh":
      return (parts) => two(twelveHour(parts.hour))
    case "h":
      return (parts) => String(twelveHour(parts.hour))
    case "mm":
      return (parts) => two(parts.minute)
    case "ss":
      return (parts) => two(parts.second)
    case "A":
      return (parts) => (parts.hour < 12 ? "AM" : "PM")
    case "a":
      return (parts) => (parts.hour < 12 ? "am" : "pm")
    case "XXX":
    case "XX":
    case "X": {
      const text = offsetWriter(offsetMinutes, token === "XXX", token !== "X")
      return () => text
    }
    default:
      if (token.startsWith("S")) {
        const digits = token.length
        return (parts) => String(parts.millisecond).padStart(3, "0").padEnd(digits, "0").slice(0, digits)
      }
      return () => token
  }
}

const twelveHour = (hour: number): number => (hour % 12 === 0 ? 12 : hour % 12)

/** A writer of instants (milliseconds since the epoch, UTC) in `layout`, shifted to `offsetMinutes` east of UTC. */
export const instantWriter = (layout: string, offsetMinutes = 0): InstantWriter => {
  const writers = (layout.match(tokens) ?? []).map((token) => partWriter(token, offsetMinutes))
  const parts: Parts = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, millisecond: 0 }
  const date = new Date(0)
  return (epochMilliseconds) => {
    date.setTime(epochMilliseconds + offsetMinutes * 60_000)
    parts.year = date.getUTCFullYear()
    parts.month = date.getUTCMonth() + 1
    parts.day = date.getUTCDate()
    parts.hour = date.getUTCHours()
    parts.minute = date.getUTCMinutes()
    parts.second = date.getUTCSeconds()
    parts.millisecond = date.getUTCMilliseconds()
    let text = ""
    for (const write of writers) text += write(parts)
    return text
  }
}

/** A writer of dates (days since the epoch) in `layout`. */
export const dateWriter = (layout: string): ((days: number) => string) => {
  const write = instantWriter(layout)
  return (days) => write(days * millisecondsPerDay)
}

/** `+02:00` → 120; undefined for anything else. */
export const parseOffset = (text: string | undefined): number | undefined => {
  const match = text === undefined ? null : /^([+-])(\d{2}):(\d{2})$/.exec(text)
  if (match === null) return undefined
  const minutes = Number(match[2]) * 60 + Number(match[3])
  return match[1] === "-" ? -minutes : minutes
}
