/**
 * What SDMetrics' ColumnPairTrends does to a continuous column paired with a discrete one: numpy's
 * histogram_bin_edges (10 equal-width bins over the present values' [min, max], ±0.5 around a single value) and
 * np.digitize, so bins are 1..10, the maximum lands in 11 and a missing value (NaN sorts last) in 11 too. Each
 * table is binned on its own edges, as SDMetrics bins the real and the synthetic data separately.
 */
export const histogramBins = (values: Float64Array): Int32Array => {
  let min = Infinity, max = -Infinity
  for (const v of values) {
    if (Number.isNaN(v)) continue
    if (v < min) min = v
    if (v > max) max = v
  }
  if (min === Infinity) {
    min = 0
    max = 1
  } else if (min === max) {
    min -= 0.5
    max += 0.5
  }
  const step = (max - min) / 10
  const edges = Array.from({ length: 11 }, (_, i) => (i === 10 ? max : i * step + min))
  const bins = new Int32Array(values.length)
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!
    let bin = 0
    if (Number.isNaN(v)) bin = 11
    else while (bin < 11 && edges[bin]! <= v) bin++
    bins[i] = bin
  }
  return bins
}
