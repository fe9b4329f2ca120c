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

/** Tukey's fences from the quartiles, scanned in row order so the sampled indices are the first ones. */
export const scanOutliers = (
  values: Float64Array,
  q1: number,
  q3: number,
  presentCount: number,
  sampleSize: number
): OutlierScan => {
  const iqr = q3 - q1
  const lower = q1 - 1.5 * iqr
  const upper = q3 + 1.5 * iqr
  const farLower = q1 - 3 * iqr
  const farUpper = q3 + 3 * iqr
  let count = 0
  let farOutCount = 0
  const sample: Array<number> = []
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!
    // NaN fails both comparisons, so missing values are never outliers.
    if (value < lower || value > upper) {
      count++
      if (sample.length < sampleSize) sample.push(row)
      if (value < farLower || value > farUpper) farOutCount++
    }
  }
  return {
    outliers: {
      lower_bound: lower,
      upper_bound: upper,
      count,
      share: presentCount === 0 ? 0 : count / presentCount,
      sample_row_indices: sample
    },
    farOutCount
  }
}
