/**
 * The two-sample Kolmogorov–Smirnov statistic sup |F₁ − F₂| (scipy's ks_2samp) over two ascending samples without
 * NaN: a merge walk in which ties advance both sides together. 0 when either sample is empty.
 */
export const twoSampleKsStatistic = (a: Float64Array, b: Float64Array): number => {
  let i = 0, j = 0, statistic = 0
  while (i < a.length && j < b.length) {
    const value = Math.min(a[i]!, b[j]!)
    while (i < a.length && a[i]! <= value) i++
    while (j < b.length && b[j]! <= value) j++
    statistic = Math.max(statistic, Math.abs(i / a.length - j / b.length))
  }
  return statistic
}
