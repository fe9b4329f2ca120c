import { anyBooleanPair, booleanPairIn, isCanonicalBooleanIn, oneZero } from "./booleanText.ts"
import { BooleanSpellings } from "./BooleanSpellings.ts"
import { DateFormEvidence } from "./DateFormEvidence.ts"
import { NumberFormEvidence } from "./NumberFormEvidence.ts"
import { emptyDateReading, isoForm, readDateIn } from "./dateText.ts"
import { isCalendarDate } from "./calendar.ts"
import { classifyNumberIn, commaDecimal, dotDecimal, emptyNumberReading } from "./numberText.ts"

const bothConventions = dotDecimal | commaDecimal

const fitsInt32 = (value: number): boolean => value === (value | 0)

/**
 * What pass 1 learns about one column: a handful of flags and counters per candidate type, never the values, so
 * memory does not grow with the number of rows. A candidate that one cell rules out is not checked again, which
 * keeps text columns cheap.
 */
export class ColumnEvidence {
  present = 0

  /** Boolean pairs every cell so far fits (bits of booleanText). */
  booleanPairs = anyBooleanPair
  canonicalBooleans = 0
  readonly booleanSpellings = new BooleanSpellings()

  /** Decimal conventions every cell so far reads under (bits of numberText). */
  numberConventions = bothConventions
  dotIntegral = true
  commaIntegral = true
  dotInt32 = true
  commaInt32 = true
  dotSeparated = 0
  commaSeparated = 0
  /** How the cells were written under each convention (decimals, thousands separators). */
  readonly dotForm = new NumberFormEvidence()
  readonly commaForm = new NumberFormEvidence()
  /** A cell such as `1,234` that both conventions read, as different numbers. */
  ambiguousComma = false

  /** Every cell so far is a date or date-time; `dateForms` is the set of forms seen (bits of dateText). */
  dates = true
  dateForms = 0
  monthFirstValid = true
  dayFirstValid = true
  anyTime = false
  isoDatesOnly = 0
  canonicalDateTimes = 0
  readonly dateForm = new DateFormEvidence()

  private readonly numberReading = emptyNumberReading()
  private readonly dateReading = emptyDateReading()

  /** A trimmed, non-missing text cell. */
  observeText(text: string): void {
    this.observeField(text, 0, text.length)
  }

  /** `observeText` of `text` from `start` to `end`: a CSV field in place (see FieldBatch), read without a string. */
  observeField(text: string, start: number, end: number): void {
    this.present++
    if (this.booleanPairs !== 0) {
      this.booleanPairs &= booleanPairIn(text, start, end)
      if (isCanonicalBooleanIn(text, start, end)) {
        this.canonicalBooleans++
        this.booleanSpellings.observe(text.charCodeAt(start) === 116 /* t */ ? "true" : "false")
      } else if (this.booleanPairs !== 0) this.booleanSpellings.observe(text.slice(start, end))
    }
    if (this.numberConventions !== 0) this.observeNumberText(text, start, end)
    if (this.dates) this.observeDateText(text, start, end)
  }

  /**
   * A trimmed, non-missing text cell holding a double quote, which no number, date or boolean spelling has: what
   * `observeText` would conclude, without unescaping the CSV field it came from.
   */
  observeTextWithQuote(): void {
    this.present++
    this.booleanPairs = 0
    this.numberConventions = 0
    this.dates = false
  }

  /** A JSON number: numeric evidence as it stands, and a boolean when 0 or 1, as the same text would be in a CSV. */
  observeNumber(value: number): void {
    this.present++
    if (this.booleanPairs !== 0) {
      this.booleanPairs &= value === 0 || value === 1 ? oneZero : 0
      if (this.booleanPairs !== 0) this.booleanSpellings.observe(value === 1 ? "1" : "0")
    }
    if (this.numberConventions !== 0) {
      this.dotForm.observeJsonNumber(value)
      this.commaForm.observeJsonNumber(value)
      const integral = Number.isSafeInteger(value)
      this.dotIntegral &&= integral
      this.commaIntegral &&= integral
      if (integral && !fitsInt32(value)) {
        this.dotInt32 = false
        this.commaInt32 = false
      }
    }
    this.dates = false
  }

  /** A JSON boolean: fits any boolean pair, and nothing else. */
  observeBoolean(value: boolean): void {
    this.present++
    if (this.booleanPairs !== 0) {
      this.canonicalBooleans++
      this.booleanSpellings.observe(value ? "true" : "false")
    }
    this.numberConventions = 0
    this.dates = false
  }

  private observeNumberText(text: string, start: number, end: number): void {
    const reading = classifyNumberIn(text, start, end, this.numberReading)
    this.numberConventions &= reading.conventions
    if ((this.numberConventions & dotDecimal) !== 0) {
      this.dotIntegral &&= reading.dotIntegral
      if (reading.dotIntegral && !fitsInt32(reading.dotValue)) this.dotInt32 = false
      if (reading.dotSeparated) this.dotSeparated++
      this.dotForm.observe(reading.dotDecimals, reading.dotGrouped, reading.dotValue)
    }
    if ((this.numberConventions & commaDecimal) !== 0) {
      this.commaIntegral &&= reading.commaIntegral
      if (reading.commaIntegral && !fitsInt32(reading.commaValue)) this.commaInt32 = false
      if (reading.commaSeparated) this.commaSeparated++
      this.commaForm.observe(reading.commaDecimals, reading.commaGrouped, reading.commaValue)
    }
    if (
      reading.conventions === bothConventions && reading.dotValue !== reading.commaValue &&
      text.slice(start, end).includes(",")
    ) {
      this.ambiguousComma = true
    }
  }

  private observeDateText(text: string, start: number, end: number): void {
    const reading = readDateIn(text, start, end, this.dateReading)
    if (reading.form === 0) {
      this.dates = false
      return
    }
    this.dateForms |= reading.form
    if (reading.hasTime) this.anyTime = true
    if (reading.form === isoForm) {
      if (!reading.hasTime) this.isoDatesOnly++
      else if (reading.canonical) this.canonicalDateTimes++
      else this.dateForm.observe(reading)
      return
    }
    this.dateForm.observe(reading)
    this.monthFirstValid &&= isCalendarDate(reading.year, reading.first, reading.second)
    this.dayFirstValid &&= isCalendarDate(reading.year, reading.second, reading.first)
  }
}
