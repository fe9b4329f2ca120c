/** scipy.stats.kstest's one-sample statistic D = max over sorted x_(i) of max(i/n − F(x_(i)), F(x_(i)) − (i−1)/n). */
export const ksStatistic = (sorted: Float64Array, cdf: (x: number) => number): number => {
  const n = sorted.length
  let statistic = 0
  for (let i = 0; i < n; i++) {
    const f = cdf(sorted[i]!)
    statistic = Math.max(statistic, (i + 1) / n - f, f - i / n)
  }
  return statistic
}
