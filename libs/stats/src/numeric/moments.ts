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
 * Moments of n values from the sums s1…s4 of their deviations' powers about `centre`. Moved to the mean (which is
 * centre + s1/n), the central sums lose nothing when the centre is close to it: the corrections are then tiny.
 */
export const momentsFromPowerSums = (
  n: number,
  centre: number,
  s1: number,
  s2: number,
  s3: number,
  s4: number
): Moments => {
  if (n === 0) return { count: 0, mean: NaN, std: NaN, skewness: NaN, kurtosis: NaN }
  const d = s1 / n
  const m2 = s2 - s1 * d
  const m3 = s3 - 3 * d * s2 + 2 * n * d * d * d
  const m4 = s4 - 4 * d * s3 + 6 * d * d * s2 - 3 * n * d * d * d * d
  const std = n > 1 ? Math.sqrt(m2 / (n - 1)) : NaN
  const skewness = n < 3 || m2 === 0 ? NaN : ((n * Math.sqrt(n - 1)) / (n - 2)) * (m3 / Math.pow(m2, 1.5))
  const kurtosis = n < 4 || m2 === 0
    ? NaN
    : ((n - 1) / ((n - 2) * (n - 3))) * ((n * (n + 1) * m4) / (m2 * m2) - 3 * (n - 1))
  return { count: n, mean: centre + d, std, skewness, kurtosis }
}
