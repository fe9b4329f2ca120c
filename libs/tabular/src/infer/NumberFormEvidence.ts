import { formKeys } from "../form/formKeys.ts"

/**
 * How one column's cells were written under one decimal convention: digits after the decimal mark, and thousands
 * separators. Counters only, like the rest of pass 1's evidence.
 */
export class NumberFormEvidence {
  minDecimals = Number.POSITIVE_INFINITY
  maxDecimals = 0
  /** A cell written with an exponent (`1e-3`), or a JSON number, whose digits say nothing about the column's. */
  freeDecimals = false
  grouped = 0
  /** Cells of 1,000 or more written without a thousands separator. */
  largeUngrouped = 0

  /** `decimals` -1: an exponent; `value` NaN when not read (long decimals), which counts as small. */
  observe(decimals: number, grouped: boolean, value: number): void {
    if (decimals < 0) this.freeDecimals = true
    else {
      if (decimals < this.minDecimals) this.minDecimals = decimals
      if (decimals > this.maxDecimals) this.maxDecimals = decimals
    }
    if (grouped) this.grouped++
    else if (value >= 1000 || value <= -1000) this.largeUngrouped++
  }

  /** A JSON number: no digits to learn from; whole ones are plain integers. */
  observeJsonNumber(value: number): void {
    if (!Number.isInteger(value)) this.freeDecimals = true
    else if (this.minDecimals > 0) this.minDecimals = 0
    if (value >= 1000 || value <= -1000) this.largeUngrouped++
  }

  /**
   * The field metadata of the form: the decimal mark of the convention, the group mark when most large numbers had
   * one, and for floats the range of decimals written.
   */
  metadata(commaConvention: boolean, float: boolean): Array<readonly [string, string]> {
    const entries: Array<readonly [string, string]> = []
    if (commaConvention) entries.push([formKeys.decimalMark, ","])
    if (this.grouped > 0 && this.grouped >= this.largeUngrouped) entries.push([formKeys.groupMark, commaConvention ? "." : ","])
    if (float && !this.freeDecimals && this.minDecimals <= this.maxDecimals) {
      entries.push([formKeys.minDecimals, String(this.minDecimals)], [formKeys.maxDecimals, String(this.maxDecimals)])
    }
    return entries
  }
}
