/**
 * The q-quantile of sorted values with numpy's default "linear" method (also pandas' quantile and describe()):
 * virtual index (n - 1) * q, interpolated the way numpy's `_lerp` does it, so results agree to the last bit.
 */
export const quantileSorted = (sorted: Float64Array, q: number): number => {
  const n = sorted.length
  if (n === 0) return NaN
  const virtualIndex = (n - 1) * q
  const below = Math.min(Math.max(Math.floor(virtualIndex), 0), n - 1)
  const above = Math.min(below + 1, n - 1)
  const gamma = virtualIndex - below
  const a = sorted[below]!
  const b = sorted[above]!
  const difference = b - a
  // numpy interpolates from the nearer end, so the result stays monotone and exact at the ends.
  return gamma >= 0.5 ? b - difference * (1 - gamma) : a + difference * gamma
}

/** numpy's median: the middle value, or the mean of the two middle values. */
export const medianSorted = (sorted: Float64Array): number => {
  const n = sorted.length
  if (n === 0) return NaN
  const middle = n >> 1
  return n % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
