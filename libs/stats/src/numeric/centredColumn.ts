import type { Moments } from "./moments.ts"
import { momentsFromPowerSums } from "./moments.ts"

// A numeric column's deviations from its present mean, prepared once for everything that needs them: the column's
// own moments, Pearson r with every other numeric column and η with every categorical one. Each of these used to
// make its own passes over the column (up to eleven on a column with missing values); two passes now serve them all.

/** A numeric column centred on the mean of its present values. */
export interface CentredColumn {
  readonly presentCount: number
  /** The present values' mean, summed in row order: every deviation below is `value − shift`. */
  readonly shift: number
  /**
   * Where a row's deviation comes from: `source[row] − sourceShift`, 0 where the value is missing. A column with no
   * missing value is its own source (sourceShift = shift), so it costs no copy; one with missing values gets an
   * array of deviations (sourceShift = 0). Either way hot loops read one array and need no branch.
   */
  readonly source: Float64Array
  readonly sourceShift: number
  /** Σ deviation over present rows. */
  readonly sum: number
  /** Σ deviation² over present rows. */
  readonly squares: number
  /** Rows missing the value, ascending. */
  readonly missingRows: Int32Array
  /** Fewer than two distinct present values: nothing for another column to correlate with or explain. */
  readonly constant: boolean
  /** Mean, std, skewness and kurtosis of the present values. */
  readonly moments: Moments
}

/** What a column's own summary takes from its CentredColumn. */
export type ColumnMoments = Pick<CentredColumn, "presentCount" | "moments">

interface PresentTotals {
  readonly present: number
  readonly sum: number
  readonly first: number
  readonly constant: boolean
}

const presentTotals = (values: Float64Array): PresentTotals => {
  let sum = 0
  let present = 0
  let first = NaN
  let constant = true
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!
    if (value !== value) continue
    if (present === 0) first = value
    constant &&= value === first
    sum += value
    present++
  }
  return { present, sum, first, constant }
}

type PowerSums = readonly [number, number, number, number]

/**
 * Σ d, Σ d², Σ d³, Σ d⁴ over the present values' deviations d from `centre`. Where arrays are given, also
 * records every row's deviation (0 where missing) and the missing rows.
 */
const powerSums = (
  values: Float64Array,
  centre: number,
  deviations: Float64Array | null,
  missingRows: Int32Array | null
): PowerSums => {
  let s1 = 0
  let s2 = 0
  let s3 = 0
  let s4 = 0
  let missing = 0
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!
    if (value !== value) {
      if (missingRows !== null) missingRows[missing++] = row
      continue
    }
    const deviation = value - centre
    if (deviations !== null) deviations[row] = deviation
    const squared = deviation * deviation
    s1 += deviation
    s2 += squared
    s3 += squared * deviation
    s4 += squared * squared
  }
  return [s1, s2, s3, s4]
}

export const centredColumn = (values: Float64Array): CentredColumn => {
  const { present, sum: total, first, constant } = presentTotals(values)
  const shift = present === 0 ? 0 : total / present
  const missingCount = values.length - present
  const deviations = missingCount === 0 ? null : new Float64Array(values.length)
  const missingRows = new Int32Array(missingCount)
  const sums = powerSums(values, shift, deviations, missingRows)
  const [s1, s2] = sums
  // The sums about `shift` give moments as accurate as sums about the exact mean while the two are close (always,
  // short of a mean some 1e10 standard deviations from zero); past that, the sums are taken again about the mean
  // they give, as the corrected two-pass algorithm would.
  const mean = shift + s1 / Math.max(present, 1)
  const close = s1 * s1 <= s2 * present * 1e-6
  const [c1, c2, c3, c4] = close ? sums : powerSums(values, mean, null, null)
  return {
    presentCount: present,
    shift,
    source: deviations ?? values,
    sourceShift: deviations === null ? shift : 0,
    sum: s1,
    squares: s2,
    missingRows,
    constant,
    moments: constant
      ? momentsFromPowerSums(present, first, 0, 0, 0, 0)
      : momentsFromPowerSums(present, close ? shift : mean, c1, c2, c3, c4)
  }
}
