/**
 * scipy.stats.wasserstein_distance(u, v) for two 1-D samples (ascending, no NaN): ∫|F_u − F_v| dx, the area between
 * the two empirical CDFs, in the values' unit. NaN when either sample is empty.
 */
export const wassersteinDistance = (u: Float64Array, v: Float64Array): number => {
  if (u.length === 0 || v.length === 0) return NaN
  let i = 0, j = 0, distance = 0
  let previous = Math.min(u[0]!, v[0]!)
  while (i < u.length || j < v.length) {
    const next = j >= v.length || (i < u.length && u[i]! <= v[j]!) ? u[i]! : v[j]!
    distance += Math.abs(i / u.length - j / v.length) * (next - previous)
    while (i < u.length && u[i]! <= next) i++
    while (j < v.length && v[j]! <= next) j++
    previous = next
  }
  return distance
}

/**
 * The Wasserstein distance divided by the real column's range (max − min of its present values), so columns of any
 * unit compare: 0 is identical, 1 is a shift by the whole real range (it can exceed 1). A constant real column
 * gives 0 when the synthetic one is the same constant and 1 otherwise, as SDMetrics' DCR treats a zero range.
 */
export const normalisedWasserstein = (distance: number, realRange: number): number => {
  if (Number.isNaN(distance)) return NaN
  if (realRange === 0) return distance === 0 ? 0 : 1
  return distance / realRange
}
