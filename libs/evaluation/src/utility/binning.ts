import type { FeatureMatrix } from "./features.ts"

/**
 * Where a split between bin b and bin b+1 puts its threshold (x < threshold goes left): XGBoost's hist uses the
 * first value of bin b+1 (its cut points are sketched data values); scikit-learn's trees the midpoint between the
 * last value of bin b and the first of bin b+1. Training rows bin the same either way; unseen values may not.
 */
export type ThresholdStyle = "nextValue" | "midpoint"

/** Per feature, the ascending thresholds between its bins: a value's bin is how many thresholds are ≤ it. */
export interface BinEdges {
  readonly thresholds: ReadonlyArray<Float64Array>
  /** Per feature, the smallest and the largest training value of each bin. */
  readonly binLow: ReadonlyArray<Float64Array>
  readonly binHigh: ReadonlyArray<Float64Array>
}

/**
 * Row-major bin indices (feature f of row r at `r * featureCount + f`), at most 256 bins per feature: tree growing
 * reads all (or a sample of the) features of the rows in one node, so a row's bins sit together.
 */
export interface BinnedMatrix {
  readonly rowCount: number
  readonly featureCount: number
  readonly bins: Uint8Array
  /** Per feature, its number of bins (thresholds + 1). */
  readonly binCounts: Int32Array
}

/** XGBoost's `max_bin` default. */
export const defaultMaxBins = 256

/**
 * Up to `maxBins` bins per feature from the training matrix, cut where XGBoost's hist cuts (see `binStarts`).
 * `roundToFloat32` bins values as XGBoost does (it stores features as float32).
 */
export const fitBinEdges = (matrix: FeatureMatrix, maxBins: number, style: ThresholdStyle, roundToFloat32: boolean): BinEdges => {
  const { rowCount } = matrix
  const binLow: Array<Float64Array> = []
  const binHigh: Array<Float64Array> = []
  const thresholds = Array.from({ length: matrix.featureCount }, (_, f) => {
    const sorted = matrix.values.slice(f * rowCount, (f + 1) * rowCount)
    if (roundToFloat32) for (let i = 0; i < sorted.length; i++) sorted[i] = Math.fround(sorted[i]!)
    sorted.sort()
    const distinct: Array<number> = []
    const firstRank: Array<number> = []
    sorted.forEach((value, rank) => {
      if (distinct.length === 0 || value !== distinct[distinct.length - 1]) {
        distinct.push(value)
        firstRank.push(rank)
      }
    })
    const starts = binStarts(firstRank, sorted.length, maxBins)
    const firstOfBin = [0, ...starts]
    binLow.push(Float64Array.from(firstOfBin, (d) => distinct[d] ?? 0))
    binHigh.push(Float64Array.from(firstOfBin, (_, k) => distinct[(firstOfBin[k + 1] ?? distinct.length) - 1] ?? 0))
    return Float64Array.from(starts, (d) => (style === "nextValue" ? distinct[d]! : (distinct[d - 1]! + distinct[d]!) / 2))
  })
  return { thresholds, binLow, binHigh }
}

/**
 * Indices of the distinct values that start a new bin (the first bin starts at 0 and needs no threshold), as XGBoost
 * chooses its cut points from an exact weighted quantile summary (WQSummary::SetPrune to max_bin + 1 entries, then
 * AddCutPoint): with no more distinct values than bins every value is a bin; otherwise entries at evenly spaced ranks.
 * `firstRank[d]` is how many values are smaller than distinct value d.
 */
const binStarts = (firstRank: ReadonlyArray<number>, total: number, maxBins: number): ReadonlyArray<number> => {
  const size = firstRank.length
  const rmin = (d: number) => firstRank[d]!
  const weight = (d: number) => (d + 1 < size ? firstRank[d + 1]! : total) - firstRank[d]!
  const rmax = (d: number) => rmin(d) + weight(d)
  const kept: Array<number> = [0]
  if (size <= maxBins + 1) for (let d = 1; d < size; d++) kept.push(d)
  else {
    const begin = rmax(0), range = rmin(size - 1) - rmax(0), n = maxBins
    let i = 1, last = 0
    for (let k = 1; k < n; k++) {
      const dx2 = 2 * ((k * range) / n + begin)
      while (i < size - 1 && dx2 >= rmax(i + 1) + rmin(i + 1)) i++
      if (i === size - 1) break
      const pick = dx2 < rmin(i) + weight(i) + rmax(i + 1) - weight(i + 1) ? i : i + 1
      if (pick !== last) {
        kept.push(pick)
        last = pick
      }
    }
    if (last !== size - 1) kept.push(size - 1)
  }
  // AddCutPoint: entries 1 … min(size, max_bin) − 1 become cuts; values past the last cut share the last bin.
  return kept.slice(1, Math.min(kept.length, maxBins))
}
/** First index whose threshold is > value (upper bound) = the value's bin. */
const binOf = (thresholds: Float64Array, value: number): number => {
  let low = 0, high = thresholds.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (thresholds[middle]! <= value) low = middle + 1
    else high = middle
  }
  return low
}

export const applyBinEdges = (edges: BinEdges, matrix: FeatureMatrix, roundToFloat32: boolean): BinnedMatrix => {
  const { rowCount, featureCount } = matrix
  const bins = new Uint8Array(rowCount * featureCount)
  for (let f = 0; f < featureCount; f++) {
    const thresholds = edges.thresholds[f]!
    const offset = f * rowCount
    for (let r = 0; r < rowCount; r++) {
      const value = matrix.values[offset + r]!
      bins[r * featureCount + f] = binOf(thresholds, roundToFloat32 ? Math.fround(value) : value)
    }
  }
  return { rowCount, featureCount, bins, binCounts: Int32Array.from(edges.thresholds, (t) => t.length + 1) }
}
