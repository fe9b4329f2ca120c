import { countBelow } from "./sortedCounts.ts"

export interface Histogram {
  readonly bin_edges: ReadonlyArray<number>
  readonly counts: ReadonlyArray<number>
}

/**
 * How many equal-width bins: Freedman–Diaconis (width 2·IQR·n^(-1/3)), falling back to Sturges (log2 n + 1) when
 * the IQR is 0, capped to [1, maxBins]. Deterministic, so the reference script recomputes the same count.
 */
export const histogramBinCount = (count: number, min: number, max: number, iqr: number, maxBins: number): number => {
  if (count === 0 || max === min) return 1
  const bins = iqr > 0
    ? Math.ceil((max - min) / (2 * iqr * Math.pow(count, -1 / 3)))
    : Math.ceil(Math.log2(count)) + 1
  return Math.min(Math.max(bins, 1), maxBins)
}

/**
 * Equal-width edges exactly as numpy.histogram builds them (np.linspace: start + i·step, the last edge set to the
 * maximum; a zero range widened by 0.5 on each side), and counts with numpy's rule: each bin is [left, right)
 * except the last, which also holds its right edge. The values are sorted, so a bin's count is the difference of
 * two binary searches.
 */
export const histogramSorted = (sorted: Float64Array, bins: number): Histogram => {
  if (sorted.length === 0) return { bin_edges: [], counts: [] }
  let first = sorted[0]!
  let last = sorted[sorted.length - 1]!
  if (first === last) {
    first -= 0.5
    last += 0.5
  }
  const step = (last - first) / bins
  const edges = Array.from({ length: bins + 1 }, (_, index) => (index === bins ? last : index * step + first))
  // below[bin]: values left of the bin's left edge; every value is at or right of the first edge.
  const below = edges.map((edge, index) =>
    index === 0 ? 0 : index === bins ? sorted.length : countBelow(sorted, edge))
  const counts = Array.from({ length: bins }, (_, bin) => below[bin + 1]! - below[bin]!)
  return { bin_edges: edges, counts }
}
