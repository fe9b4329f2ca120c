/**
 * Evenly spaced order statistics of a sorted sample (all of it when short): the iterative likelihood searches of
 * beta and gamma run on these, where each step would otherwise cost a pass over up to 100,000 values; the final
 * closed-form shape fit then uses every value.
 */
export const thinSorted = (sorted: Float64Array, limit = 20_000): Float64Array => {
  if (sorted.length <= limit) return sorted
  const thinned = new Float64Array(limit)
  for (let i = 0; i < limit; i++) thinned[i] = sorted[Math.round((i * (sorted.length - 1)) / (limit - 1))]!
  return thinned
}
