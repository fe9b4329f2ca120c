import { countAbove, countBelow } from "./sortedCounts.ts"

export interface Outliers {
  /** Q1 − 1.5·IQR */
  readonly lower_bound: number
  /** Q3 + 1.5·IQR */
  readonly upper_bound: number
  readonly count: number
  /** count / non-missing values */
  readonly share: number
  /** The first row indices (0-based) holding an outlier. */
  readonly sample_row_indices: ReadonlyArray<number>
}

export interface OutlierScan {
  readonly outliers: Outliers
  /** Values beyond Tukey's outer fences (Q1 − 3·IQR, Q3 + 3·IQR): the "far out" ones data quality counts. */
  readonly farOutCount: number
}

/** The first `sampleSize` of the `count` rows holding a value outside [lower, upper]: stops once it has them. */
const firstOutlierRows = (values: Float64Array, lower: number, upper: number, count: number, sampleSize: number) => {
  const wanted = Math.min(count, sampleSize)
  const rows: Array<number> = []
  for (let row = 0; row < values.length && rows.length < wanted; row++) {
    const value = values[row]!
    // NaN fails both comparisons, so missing values are never outliers.
    if (value < lower || value > upper) rows.push(row)
  }
  return rows
}

/**
 * Tukey's fences from the quartiles. The counts come from the sorted present values by binary search; the rows are
 * then scanned only as far as the first outliers to sample.
 */
export const scanOutliers = (
  values: Float64Array,
  sorted: Float64Array,
  q1: number,
  q3: number,
  sampleSize: number
): OutlierScan => {
  const iqr = q3 - q1
  const lower = q1 - 1.5 * iqr
  const upper = q3 + 1.5 * iqr
  const count = countBelow(sorted, lower) + countAbove(sorted, upper)
  const farOutCount = countBelow(sorted, q1 - 3 * iqr) + countAbove(sorted, q3 + 3 * iqr)
  return {
    outliers: {
      lower_bound: lower,
      upper_bound: upper,
      count,
      share: sorted.length === 0 ? 0 : count / sorted.length,
      sample_row_indices: firstOutlierRows(values, lower, upper, count, sampleSize)
    },
    farOutCount
  }
}
