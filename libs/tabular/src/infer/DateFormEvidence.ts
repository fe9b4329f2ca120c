import { formKeys } from "../form/formKeys.ts"
import {
  colonOffset,
  compactOffset,
  type DateReading,
  hourOffset,
  lowerMeridiem,
  noMeridiem,
  upperMeridiem,
  zoneForms,
  zuluZone
} from "./dateText.ts"

/**
 * How one date or datetime column's cells were written, as counters: zero-padding of each part (told only by parts
 * below 10), the date/time separator, seconds, fraction digits, AM/PM and the zone. The layout takes the most common
 * way of each, so a column written one way comes back exactly, and a mixed one in its usual way.
 */
export class DateFormEvidence {
  readonly #padded = new Int32Array(3)
  readonly #unpadded = new Int32Array(3)
  #spaceSeparated = 0
  #tSeparated = 0
  #withSeconds = 0
  #withoutSeconds = 0
  readonly #fractionDigits = new Int32Array(10)
  readonly #meridiems = new Int32Array(3)
  #meridiemSpaced = 0
  readonly #zones = new Int32Array(zoneForms)
  readonly #offsets = new Map<number, number>()

  observe(reading: DateReading): void {
    this.#part(0, reading.first, reading.firstDigits)
    this.#part(1, reading.second, reading.secondDigits)
    if (!reading.hasTime) return
    if (reading.timeSeparator === "T") this.#tSeparated++
    else this.#spaceSeparated++
    this.#part(2, reading.hour, reading.hourDigits)
    if (reading.hasSeconds) this.#withSeconds++
    else this.#withoutSeconds++
    this.#fractionDigits[Math.min(9, reading.fractionDigits)]!++
    this.#meridiems[reading.meridiem]!++
    if (reading.meridiem !== noMeridiem && reading.meridiemSpaced) this.#meridiemSpaced++
    this.#zones[reading.zone]!++
    if (reading.zone > zuluZone) this.#offsets.set(reading.offsetMinutes, (this.#offsets.get(reading.offsetMinutes) ?? 0) + 1)
  }

  /** Canonical ISO datetimes (`YYYY-MM-DDTHH:mm:ss.sssZ`) read on the fast path, counted at once. */
  observeCanonical(count: number): void {
    this.#tSeparated += count
    this.#withSeconds += count
    this.#fractionDigits[3]! += count
    this.#meridiems[noMeridiem]! += count
    this.#zones[zuluZone]! += count
  }

  #part(index: number, value: number, digits: number): void {
    if (value >= 10) return
    if (digits >= 2) this.#padded[index]!++
    else this.#unpadded[index]!++
  }

  #isPadded(index: number): boolean {
    return this.#padded[index]! >= this.#unpadded[index]!
  }

  /** The field metadata: the layout, and the offset for a column written with one. */
  metadata(iso: boolean, separator: string, dayFirst: boolean, withTime: boolean): Array<readonly [string, string]> {
    const date = iso ? "YYYY-MM-DD" : this.#datePart(separator, dayFirst)
    if (!withTime) return [[formKeys.layout, date]]
    const layout = `${date}${this.#tSeparated >= this.#spaceSeparated ? "T" : " "}${this.#timePart()}`
    const zone = mostCommon(this.#zones)
    if (zone <= zuluZone) return [[formKeys.layout, layout]]
    return [[formKeys.layout, layout], [formKeys.utcOffset, offsetText(mostCommonKey(this.#offsets))]]
  }

  #datePart(separator: string, dayFirst: boolean): string {
    const first = (dayFirst ? "D" : "M").repeat(this.#isPadded(0) ? 2 : 1)
    const second = (dayFirst ? "M" : "D").repeat(this.#isPadded(1) ? 2 : 1)
    return `${first}${separator}${second}${separator}YYYY`
  }

  #timePart(): string {
    const meridiem = mostCommon(this.#meridiems)
    const hour = (meridiem === noMeridiem ? "H" : "h").repeat(this.#isPadded(2) ? 2 : 1)
    let time = `${hour}:mm`
    if (this.#withSeconds >= this.#withoutSeconds) {
      time += ":ss"
      const fraction = mostCommon(this.#fractionDigits)
      if (fraction > 0) time += `.${"S".repeat(fraction)}`
    }
    if (meridiem !== noMeridiem) {
      const spaced = this.#meridiemSpaced * 2 >= this.#meridiems[upperMeridiem]! + this.#meridiems[lowerMeridiem]!
      time += `${spaced ? " " : ""}${meridiem === upperMeridiem ? "A" : "a"}`
    }
    return time + zoneToken(mostCommon(this.#zones))
  }
}

const zoneToken = (zone: number): string =>
  zone === zuluZone ? "Z" : zone === colonOffset ? "XXX" : zone === compactOffset ? "XX" : zone === hourOffset ? "X" : ""

/** The index of the largest count; the first on a tie. */
const mostCommon = (counts: Int32Array): number => {
  let best = 0
  for (let index = 1; index < counts.length; index++) if (counts[index]! > counts[best]!) best = index
  return best
}

const mostCommonKey = (counts: ReadonlyMap<number, number>): number => {
  let best = 0
  let bestCount = 0
  for (const [key, count] of counts) {
    if (count > bestCount) {
      best = key
      bestCount = count
    }
  }
  return best
}

/** `+02:00` for 120 minutes east of UTC. */
export const offsetText = (minutes: number): string => {
  const sign = minutes < 0 ? "-" : "+"
  const magnitude = Math.abs(minutes)
  return `${sign}${String(Math.floor(magnitude / 60)).padStart(2, "0")}:${String(magnitude % 60).padStart(2, "0")}`
}
