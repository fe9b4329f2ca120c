import type { NumericColumn } from "../ProfileInput.ts"

/** Mean and centred sum of squares of a column with no missing values, computed once and shared by its pairs. */
export interface CompleteMoments {
  readonly mean: number
  readonly sumOfSquares: number
}

const completeMoments = (values: Float64Array): CompleteMoments | null => {
  let sum = 0
  for (let row = 0; row < values.length; row++) sum += values[row]!
  // NaN anywhere makes the sum NaN: the column has missing values and its pairs take the pairwise path.
  if (Number.isNaN(sum) || values.length === 0) return null
  const mean = sum / values.length
  const first = values[0]!
  let constant = true
  let sumOfSquares = 0
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!
    const deviation = value - mean
    sumOfSquares += deviation * deviation
    constant &&= value === first
  }
  // A rounded mean leaves tiny deviations in a constant column; pandas reports no correlation there, and so do we.
  return { mean, sumOfSquares: constant ? 0 : sumOfSquares }
}

const clampedRatio = (covariance: number, xx: number, yy: number): number | null => {
  const denominator = Math.sqrt(xx * yy)
  if (!(denominator > 0)) return null
  return Math.min(1, Math.max(-1, covariance / denominator))
}

/**
 * Pearson r over rows where both values are present, as pandas' DataFrame.corr(): null when fewer than two such
 * rows or when either side is constant over them. Columns without missing values use their shared moments; other
 * pairs take one pass of sums shifted by each column's present mean, which keeps the cancellation in
 * Σdx·dy − Σdx·Σdy/n small (the joint-row mean is close to the shift).
 */
export const pearson = (x: NumericColumn, y: NumericColumn, xStats: ColumnStats, yStats: ColumnStats): number | null => {
  if (xStats.complete !== null && yStats.complete !== null) return completePearson(x.values, y.values, xStats.complete, yStats.complete)
  if (xStats.constant || yStats.constant) return null
  return pairwisePearson(x.values, y.values, xStats.shift, yStats.shift)
}

// The two loops live in functions of their own: sharing one function, V8 kept deoptimising it (one pair was 35 ms
// instead of 2).

const completePearson = (xs: Float64Array, ys: Float64Array, x: CompleteMoments, y: CompleteMoments) => {
  const xMean = x.mean
  const yMean = y.mean
  let covariance = 0
  for (let row = 0; row < xs.length; row++) covariance += (xs[row]! - xMean) * (ys[row]! - yMean)
  return clampedRatio(covariance, x.sumOfSquares, y.sumOfSquares)
}

const pairwisePearson = (xs: Float64Array, ys: Float64Array, xShift: number, yShift: number) => {
  let count = 0
  let dxSum = 0
  let dySum = 0
  let dxxSum = 0
  let dyySum = 0
  let dxySum = 0
  for (let row = 0; row < xs.length; row++) {
    const dx = xs[row]! - xShift
    const dy = ys[row]! - yShift
    // NaN − shift is NaN, and NaN fails every comparison: this skips rows missing either value.
    if (!(dx === dx && dy === dy)) continue
    count++
    dxSum += dx
    dySum += dy
    dxxSum += dx * dx
    dyySum += dy * dy
    dxySum += dx * dy
  }
  if (count < 2) return null
  const xx = dxxSum - (dxSum * dxSum) / count
  const yy = dyySum - (dySum * dySum) / count
  // Constant over the joint rows (though not overall) leaves only rounding noise here; pandas reports NaN.
  if (xx <= dxxSum * 1e-13 || yy <= dyySum * 1e-13) return null
  return clampedRatio(dxySum - (dxSum * dySum) / count, xx, yy)
}

/** Per column, once: moments if no value is missing, else the shift (present mean) and whether it is constant. */
export interface ColumnStats {
  readonly complete: CompleteMoments | null
  readonly shift: number
  readonly constant: boolean
}

export const columnStats = (values: Float64Array): ColumnStats => {
  const complete = completeMoments(values)
  if (complete !== null) return { complete, shift: complete.mean, constant: complete.sumOfSquares === 0 }
  let sum = 0
  let count = 0
  let first = NaN
  let constant = true
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!
    if (Number.isNaN(value)) continue
    if (count === 0) first = value
    constant &&= value === first
    sum += value
    count++
  }
  return { complete: null, shift: count === 0 ? 0 : sum / count, constant }
}
