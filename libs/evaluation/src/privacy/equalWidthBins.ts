import type { ContinuousColumn } from "@synth/synth"

const DAY_NS = 86_400_000_000_000
const MS_NS = 1_000_000

/**
 * A continuous column's present values as SDMetrics' DisclosureProtection bins them (`pd.to_numeric`, so dates and
 * datetimes in nanoseconds), NaN where missing.
 */
export const binningValues = (column: ContinuousColumn): Float64Array => {
  const scale = column.type === "date" ? DAY_NS : column.type === "datetime" ? MS_NS : 1
  return column.values.map((value, row) => (column.missing?.[row] === 1 ? NaN : value * scale))
}

/**
 * pandas' `cut(values, bins)` edges for an integer bin count, as DisclosureProtection asks for them: `bins` equal
 * widths from the minimum to the maximum (numpy's linspace: start + i·step, the last edge the maximum itself), the
 * first edge lowered by 0.1 % of the range; a constant column is widened by 0.1 % of its value (0.001 at 0) on
 * each side first. Null when no value is present.
 */
export const equalWidthEdges = (values: Float64Array, bins: number): Float64Array | null => {
  let min = Infinity, max = -Infinity
  for (const value of values) {
    if (value < min) min = value
    if (value > max) max = value
  }
  if (min > max) return null
  const constant = min === max
  if (constant) {
    min -= min !== 0 ? 0.001 * Math.abs(min) : 0.001
    max += max !== 0 ? 0.001 * Math.abs(max) : 0.001
  }
  const step = (max - min) / bins
  const edges = Float64Array.from({ length: bins + 1 }, (_, i) => i * step + min)
  edges[bins] = max
  if (!constant) edges[0]! -= (max - min) * 0.001
  return edges
}

/**
 * The bin of each value for right-closed bins (edges[i], edges[i + 1]] (pandas' searchsorted side "left"), −1 for
 * a missing value or one outside the edges. `openEnds` treats the outer edges as −∞ and +∞, as DisclosureProtection
 * does for the synthetic values.
 */
export const binIndices = (values: Float64Array, edges: Float64Array, openEnds: boolean): Int32Array => {
  const last = edges.length - 1
  return Int32Array.from(values, (value) => {
    if (Number.isNaN(value)) return -1
    if (!openEnds && (value <= edges[0]! || value > edges[last]!)) return -1
    // First edge ≥ value, searched over the inner edges.
    let low = 1, high = last
    while (low < high) {
      const middle = (low + high) >>> 1
      if (edges[middle]! < value) low = middle + 1
      else high = middle
    }
    return low - 1
  })
}
