import { meanAndSquaredDeviations } from "@synth/stats"
import { normalCdf, normalPdf } from "../special/normal.ts"
import { gridDistribution } from "./gridDistribution.ts"
import type { Marginal } from "./Marginal.ts"

/** Kernels farther than this many bandwidths add 0 (or 1) to the cdf to within 1e-17. */
const REACH = 8.5
/** Up to this many points the grid sums every kernel exactly; beyond, the points are linearly binned first. */
const EXACT_POINTS = 2000
const MAX_GRID = 65_536

/** Scott's rule as scipy's gaussian_kde: n^(−1/5) times the sample standard deviation (ddof 1). */
export const scottBandwidth = (sorted: Float64Array): number => {
  const n = sorted.length
  const { squares } = meanAndSquaredDeviations(sorted)
  return Math.sqrt(squares / (n - 1)) * Math.pow(n, -0.2)
}

interface KdeGrid {
  readonly start: number
  readonly step: number
  readonly cdfs: Float64Array
  readonly pdfs: Float64Array
}

const exactGrid = (sorted: Float64Array, bandwidth: number): KdeGrid => {
  const n = sorted.length
  const min = sorted[0]!, max = sorted[n - 1]!
  const step = Math.max(bandwidth / 16, (max - min + 2 * REACH * bandwidth) / MAX_GRID)
  const start = min - REACH * bandwidth
  const size = Math.ceil((max + REACH * bandwidth - start) / step) + 1
  const cdfs = new Float64Array(size), pdfs = new Float64Array(size)
  let below = 0, first = 0
  for (let i = 0; i < size; i++) {
    const x = start + i * step
    while (below < n && sorted[below]! < x - REACH * bandwidth) below++
    while (first < n && sorted[first]! <= x + REACH * bandwidth) first++
    let cdf = below, pdf = 0
    for (let j = below; j < first; j++) {
      const standard = (x - sorted[j]!) / bandwidth
      cdf += normalCdf(standard)
      pdf += normalPdf(standard)
    }
    cdfs[i] = cdf / n
    pdfs[i] = pdf / (n * bandwidth)
  }
  return { start, step, cdfs, pdfs }
}

/**
 * Linear binning onto a grid of step ≤ bandwidth/32 (error ~ (step/bandwidth)² ≈ 1e-3 of the bandwidth's
 * variance, far below what the data can tell), then the cdf and pdf at every knot as a discrete convolution with the
 * kernel sampled at the same step: O(knots × kernel width), no kernel evaluated per point.
 */
const binnedGrid = (sorted: Float64Array, bandwidth: number): KdeGrid => {
  const n = sorted.length
  const min = sorted[0]!, max = sorted[n - 1]!
  const step = Math.max(bandwidth / 32, (max - min) / (MAX_GRID - 1))
  const bins = Math.floor((max - min) / step) + 2
  const weights = new Float64Array(bins)
  for (let i = 0; i < n; i++) {
    const position = (sorted[i]! - min) / step
    const index = Math.floor(position)
    const fraction = position - index
    weights[index]! += 1 - fraction
    weights[index + 1]! += fraction
  }
  const reach = Math.ceil((REACH * bandwidth) / step)
  const kernelCdf = new Float64Array(2 * reach + 1), kernelPdf = new Float64Array(2 * reach + 1)
  for (let d = -reach; d <= reach; d++) {
    kernelCdf[d + reach] = normalCdf((d * step) / bandwidth)
    kernelPdf[d + reach] = normalPdf((d * step) / bandwidth) / bandwidth
  }
  const size = bins + 2 * reach
  const cdfs = new Float64Array(size), pdfs = new Float64Array(size)
  let passed = 0
  for (let i = 0; i < size; i++) {
    // Knot i sits at min + (i − reach)·step; bin b at offset d = i − reach − b from it.
    const fullyBelow = i - 2 * reach - 1
    if (fullyBelow >= 0 && fullyBelow < bins) passed += weights[fullyBelow]!
    let cdf = passed, pdf = 0
    const firstBin = Math.max(0, i - 2 * reach), lastBin = Math.min(bins - 1, i)
    for (let b = firstBin; b <= lastBin; b++) {
      const k = i - b
      cdf += weights[b]! * kernelCdf[k]!
      pdf += weights[b]! * kernelPdf[k]!
    }
    cdfs[i] = cdf / n
    pdfs[i] = pdf / n
  }
  return { start: min - reach * step, step, cdfs, pdfs }
}

export const kdeMarginal = (bandwidth: number, grid: KdeGrid): Marginal => {
  const { cdf, ppf } = gridDistribution(grid.start, grid.step, grid.cdfs, grid.pdfs)
  return { family: "gaussian_kde", params: { bandwidth }, cdf, ppf }
}

/** copulas' GaussianKDE: scipy's gaussian_kde with Scott's bandwidth; cdf = mean of the kernels' Φ. */
export const fitKde = (sorted: Float64Array): Marginal => {
  const bandwidth = scottBandwidth(sorted)
  return kdeMarginal(bandwidth, sorted.length <= EXACT_POINTS ? exactGrid(sorted, bandwidth) : binnedGrid(sorted, bandwidth))
}
