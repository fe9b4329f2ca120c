export interface Moments {
  readonly count: number
  readonly mean: number
  /** Sample standard deviation (ddof = 1), as pandas' std(). */
  readonly std: number
  /** Adjusted Fisher–Pearson skewness G1, as pandas' skew(); NaN below 3 values or for constant values. */
  readonly skewness: number
  /** Excess kurtosis G2, as pandas' kurt(); NaN below 4 values or for constant values. */
  readonly kurtosis: number
}

/**
 * Moments of values without missing ones. The mean is refined by a second pass over the residuals (the corrected
 * two-pass algorithm), so it and the central sums stay accurate on large, offset data.
 */
export const moments = (values: Float64Array): Moments => {
  const n = values.length
  if (n === 0) return { count: 0, mean: NaN, std: NaN, skewness: NaN, kurtosis: NaN }
  let sum = 0
  for (let index = 0; index < n; index++) sum += values[index]!
  let mean = sum / n
  let residual = 0
  for (let index = 0; index < n; index++) residual += values[index]! - mean
  mean += residual / n
  let m2 = 0
  let m3 = 0
  let m4 = 0
  for (let index = 0; index < n; index++) {
    const deviation = values[index]! - mean
    const squared = deviation * deviation
    m2 += squared
    m3 += squared * deviation
    m4 += squared * squared
  }
  const std = n > 1 ? Math.sqrt(m2 / (n - 1)) : NaN
  const skewness = n < 3 || m2 === 0 ? NaN : ((n * Math.sqrt(n - 1)) / (n - 2)) * (m3 / Math.pow(m2, 1.5))
  const kurtosis = n < 4 || m2 === 0
    ? NaN
    : ((n - 1) / ((n - 2) * (n - 3))) * ((n * (n + 1) * m4) / (m2 * m2) - 3 * (n - 1))
  return { count: n, mean, std, skewness, kurtosis }
}
