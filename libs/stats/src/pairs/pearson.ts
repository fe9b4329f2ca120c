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
  if (xStats.shifted !== undefined && yStats.shifted !== undefined) return shiftedPearson(x.values, y.values, xStats, yStats)
  return pairwisePearson(x.values, y.values, xStats.shift, yStats.shift)
}

// Pairs with missing values, the branchless way (45 of the 66 pairs in the 1M-row benchmark): a column with missing
// values keeps its deviations from the present mean with 0 where missing, so Σdx·dy over all rows is already the sum
// over the joint rows, and Σdx, Σdx² over the joint rows are the column's totals less its values on the other
// column's (short) list of missing rows. One multiply-add pass instead of five sums behind a branch.

/** A column's deviations from its present mean, 0 where missing, and their totals; built once for all its pairs. */
export interface ShiftedColumn {
  /** null for a column without missing values: its deviations are value − shift, computed on the fly. */
  readonly deviations: Float64Array | null
  readonly sum: number
  readonly squares: number
  readonly missingRows: Int32Array
}

export const shiftedColumn = (values: Float64Array, shift: number, missingCount: number): ShiftedColumn => {
  const deviations = missingCount === 0 ? null : new Float64Array(values.length)
  const missingRows = new Int32Array(missingCount)
  let sum = 0
  let squares = 0
  let next = 0
  for (let row = 0; row < values.length; row++) {
    const deviation = values[row]! - shift
    if (deviation === deviation) {
      if (deviations !== null) deviations[row] = deviation
      sum += deviation
      squares += deviation * deviation
    } else missingRows[next++] = row
  }
  return { deviations, sum, squares, missingRows }
}

const productOfDeviations = (xs: Float64Array, ys: Float64Array) => {
  let sum = 0
  for (let row = 0; row < xs.length; row++) sum += xs[row]! * ys[row]!
  return sum
}

const productWithComplete = (deviations: Float64Array, values: Float64Array, shift: number) => {
  let sum = 0
  for (let row = 0; row < deviations.length; row++) sum += deviations[row]! * (values[row]! - shift)
  return sum
}

const deviationAt = (values: Float64Array, column: ShiftedColumn, shift: number, row: number): number =>
  column.deviations !== null ? column.deviations[row]! : values[row]! - shift

const shiftedPearson = (xs: Float64Array, ys: Float64Array, xStats: ColumnStats, yStats: ColumnStats) => {
  const x = xStats.shifted!
  const y = yStats.shifted!
  const dxySum = x.deviations !== null && y.deviations !== null
    ? productOfDeviations(x.deviations, y.deviations)
    : x.deviations !== null
    ? productWithComplete(x.deviations, ys, yStats.shift)
    : productWithComplete(y.deviations!, xs, xStats.shift)
  let dxSum = x.sum
  let dxxSum = x.squares
  let bothMissing = 0
  for (const row of y.missingRows) {
    const dx = deviationAt(xs, x, xStats.shift, row)
    if (Number.isNaN(xs[row]!)) bothMissing++
    dxSum -= dx
    dxxSum -= dx * dx
  }
  let dySum = y.sum
  let dyySum = y.squares
  for (const row of x.missingRows) {
    const dy = deviationAt(ys, y, yStats.shift, row)
    dySum -= dy
    dyySum -= dy * dy
  }
  const count = xs.length - x.missingRows.length - y.missingRows.length + bothMissing
  if (count < 2) return null
  const xx = dxxSum - (dxSum * dxSum) / count
  const yy = dyySum - (dySum * dySum) / count
  // Constant over the joint rows (though not overall) leaves only rounding noise here; pandas reports NaN.
  if (xx <= dxxSum * 1e-13 || yy <= dyySum * 1e-13) return null
  return clampedRatio(dxySum - (dxSum * dySum) / count, xx, yy)
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
  /** Set by `withShifted` for the columns of pairs with missing values. */
  readonly shifted?: ShiftedColumn
}

/** Adds each column's ShiftedColumn when some column misses values (complete pairs never need it). */
export const withShifted = (columns: ReadonlyArray<Float64Array>, stats: ReadonlyArray<ColumnStats>): Array<ColumnStats> => {
  if (stats.every((column) => column.complete !== null)) return [...stats]
  return stats.map((column, index) => {
    if (column.constant) return column
    const values = columns[index]!
    let missing = 0
    if (column.complete === null) for (let row = 0; row < values.length; row++) if (Number.isNaN(values[row]!)) missing++
    return { ...column, shifted: shiftedColumn(values, column.shift, missing) }
  })
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
