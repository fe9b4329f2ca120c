/** scipy's pearsonr on the rows where both values are present; NaN with fewer than two rows or a constant side. */
export const pearson = (x: Float64Array, y: Float64Array): number => {
  let n = 0, sumX = 0, sumY = 0
  for (let i = 0; i < x.length; i++) {
    if (Number.isNaN(x[i]!) || Number.isNaN(y[i]!)) continue
    n++
    sumX += x[i]!
    sumY += y[i]!
  }
  if (n < 2) return NaN
  const meanX = sumX / n, meanY = sumY / n
  let sxx = 0, syy = 0, sxy = 0
  for (let i = 0; i < x.length; i++) {
    if (Number.isNaN(x[i]!) || Number.isNaN(y[i]!)) continue
    const dx = x[i]! - meanX, dy = y[i]! - meanY
    sxx += dx * dx
    syy += dy * dy
    sxy += dx * dy
  }
  if (sxx === 0 || syy === 0) return NaN
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)))
}

const distinctPresent = (values: Float64Array): number => {
  const seen = new Set<number>()
  for (const v of values) {
    if (!Number.isNaN(v)) seen.add(v)
    if (seen.size > 1) break
  }
  return seen.size
}

export interface CorrelationResult {
  readonly score: number
  readonly real: number
  readonly synthetic: number
  /** NaN where SDMetrics fails the pair (a constant column), which then does not count. */
  readonly meetsThreshold: boolean | null
}

/**
 * SDMetrics' CorrelationSimilarity (Pearson) inside the Quality Report: 1 − |r_real − r_synthetic|/2, counted only
 * when |r_real| exceeds the report's real-correlation threshold (0.5 by default; 0 counts every pair). A column
 * with a single value in either table is an error in SDMetrics: the pair gets no score.
 */
export const correlationSimilarity = (
  realX: Float64Array, realY: Float64Array, syntheticX: Float64Array, syntheticY: Float64Array, threshold: number
): CorrelationResult => {
  if ([realX, realY, syntheticX, syntheticY].some((values) => distinctPresent(values) === 1)) {
    return { score: NaN, real: NaN, synthetic: NaN, meetsThreshold: null }
  }
  const real = pearson(realX, realY)
  const meetsThreshold = threshold <= 0 ? true : !Number.isNaN(real) && Math.abs(real) > threshold
  if (threshold > 0 && Math.abs(real) <= threshold) return { score: NaN, real, synthetic: NaN, meetsThreshold }
  const synthetic = pearson(syntheticX, syntheticY)
  const score = Number.isNaN(real) || Number.isNaN(synthetic) ? NaN : 1 - Math.abs(real - synthetic) / 2
  return { score, real, synthetic, meetsThreshold }
}
