/**
 * Pearson correlation of the latent normal scores, each pair over the rows where both are known (a missing value has
 * no score; its "is missing" latent carries that information). copulas fills missing values with the mean first,
 * which shrinks every correlation by the missing share; pairwise deletion does not. An undefined correlation (a
 * constant latent) is 0, as copulas' nan_to_num.
 */
export const latentCorrelation = (scores: ReadonlyArray<Float64Array>): Float64Array => {
  const size = scores.length
  const correlation = new Float64Array(size * size)
  for (let i = 0; i < size; i++) {
    correlation[i * size + i] = 1
    for (let j = 0; j < i; j++) {
      const value = pairCorrelation(scores[i]!, scores[j]!)
      correlation[i * size + j] = value
      correlation[j * size + i] = value
    }
  }
  return correlation
}

const pairCorrelation = (x: Float64Array, y: Float64Array): number => {
  let n = 0, sumX = 0, sumY = 0
  for (let r = 0; r < x.length; r++) {
    const a = x[r]!, b = y[r]!
    if (Number.isNaN(a) || Number.isNaN(b)) continue
    n++
    sumX += a
    sumY += b
  }
  if (n < 2) return 0
  const meanX = sumX / n, meanY = sumY / n
  let sxx = 0, syy = 0, sxy = 0
  for (let r = 0; r < x.length; r++) {
    const a = x[r]!, b = y[r]!
    if (Number.isNaN(a) || Number.isNaN(b)) continue
    const dx = a - meanX, dy = b - meanY
    sxx += dx * dx
    syy += dy * dy
    sxy += dx * dy
  }
  const value = sxy / Math.sqrt(sxx * syy)
  return Number.isFinite(value) ? Math.max(-1, Math.min(1, value)) : 0
}
