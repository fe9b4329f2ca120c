import type { CentredColumn } from "../numeric/centredColumn.ts"
import { positionOf, tileRows } from "./rowTiles.ts"

// Pearson r for every pair of numeric columns, as pandas' DataFrame.corr(): over rows where both values are present,
// null when fewer than two such rows or when either side is constant over them.
//
// A pair's sum of products Σdx·dy runs over all rows: a missing value's deviation is 0 (see CentredColumn), so it
// is already the sum over the joint rows. Σdx and Σdx² over the joint rows are the column's totals less its values
// on the other column's (short) list of missing rows. Deviations are from each column's present mean, which keeps
// the cancellation in Σdx·dy − Σdx·Σdy/n small (the joint-row mean is close to it).
//
// One column meets four others at a time: it is read once for the four pairs, and their four running sums are
// independent, where a single sum waits on its previous addition at every row. Rows go in tiles that stay in cache
// while every pair meets in them, so each column comes from memory once rather than once per pass. A pair's running
// sum carries from tile to tile and still adds its rows in row order: the same to the bit as one pass per pair.
// The 66 pairs of the 1M-row benchmark: ~160 ms → ~75 ms for four pairs per pass over CentredColumns shared with η
// → ~60 ms in tiles, the missing rows taken off in them too (medians of 7 in one process, alternating).

/**
 * Σdx·dy of x with a, b, c and d: the running sums at sums[at … at + 3] plus rows [start, end). Returned, not
 * stored: V8 compiles the loop while the first call is still in it (on-stack replacement), before any store after
 * it has run, and that code then gave up at the store on every call of the first profile (~1,000 times).
 */
const productSums4 = (
  x: CentredColumn, a: CentredColumn, b: CentredColumn, c: CentredColumn, d: CentredColumn,
  start: number, end: number, sums: Float64Array, at: number
): Array<number> => {
  const { source: xs, sourceShift: xShift } = x
  const { source: as, sourceShift: aShift } = a
  const { source: bs, sourceShift: bShift } = b
  const { source: cs, sourceShift: cShift } = c
  const { source: ds, sourceShift: dShift } = d
  let aSum = sums[at]!
  let bSum = sums[at + 1]!
  let cSum = sums[at + 2]!
  let dSum = sums[at + 3]!
  for (let row = start; row < end; row++) {
    const dx = xs[row]! - xShift
    aSum += dx * (as[row]! - aShift)
    bSum += dx * (bs[row]! - bShift)
    cSum += dx * (cs[row]! - cShift)
    dSum += dx * (ds[row]! - dShift)
  }
  return [aSum, bSum, cSum, dSum]
}

/** At [i · columns + j]: Σ deviation and Σ deviation² of column i over the rows where column j has a value. */
interface JointSums {
  readonly sums: Float64Array
  readonly squares: Float64Array
}

/**
 * Takes every column's deviations on column j's missing rows in [start, end) off its joint sums with j, one row at a
 * time in row order; `cursor` is where those rows start in the list, and the return value where the next tile's
 * do. Run per tile, while the tile is in cache: these rows are scattered, and looked up across whole columns they
 * missed the cache (~23 ms of the 1M-row benchmark's pairs; ~5 ms in tiles).
 */
const subtractMissingRows = (
  columns: ReadonlyArray<CentredColumn>, j: number, cursor: number, end: number, joint: JointSums
): number => {
  const missingRows = columns[j]!.missingRows
  const to = positionOf(missingRows, cursor, end)
  // Column j itself is 0 on those rows; its own slot is never read.
  columns.forEach(({ source, sourceShift }, i) => {
    const at = i * columns.length + j
    let sum = joint.sums[at]!
    let squares = joint.squares[at]!
    for (let index = cursor; index < to; index++) {
      const deviation = source[missingRows[index]!]! - sourceShift
      sum -= deviation
      squares -= deviation * deviation
    }
    joint.sums[at] = sum
    joint.squares[at] = squares
  })
  return to
}

interface PairSums {
  /** Σdx·dy of every pair i < j, at products[i][j − i − 1]. */
  readonly products: Array<Float64Array>
  readonly joint: JointSums
}

const pairSums = (columns: ReadonlyArray<CentredColumn>, rows: number): PairSums => {
  // Three spare slots per column: a last group short of four is padded with x itself, its sums falling there.
  const products = columns.map((_, i) => new Float64Array(columns.length - i + 2))
  // Column i's slots start from its sums over all its rows; subtractMissingRows takes the other column's gaps off.
  const fromColumns = (total: (column: CentredColumn) => number) =>
    Float64Array.from({ length: columns.length ** 2 }, (_, at) => total(columns[Math.floor(at / columns.length)]!))
  const joint = { sums: fromColumns((column) => column.sum), squares: fromColumns((column) => column.squares) }
  const cursors = columns.map(() => 0)
  for (let start = 0; start < rows; start += tileRows) {
    const end = Math.min(rows, start + tileRows)
    columns.forEach((x, i) => {
      for (let j = i + 1; j < columns.length; j += 4) {
        const [a, b, c, d] = [columns[j]!, columns[j + 1] ?? x, columns[j + 2] ?? x, columns[j + 3] ?? x]
        products[i]!.set(productSums4(x, a, b, c, d, start, end, products[i]!, j - i - 1), j - i - 1)
      }
      cursors[i] = subtractMissingRows(columns, i, cursors[i]!, end, joint)
    })
  }
  return { products, joint }
}

const clampedRatio = (covariance: number, xx: number, yy: number): number | null => {
  const denominator = Math.sqrt(xx * yy)
  if (!(denominator > 0)) return null
  return Math.min(1, Math.max(-1, covariance / denominator))
}

/** How many rows two ascending lists share: a merge, where looking each row up would miss the cache. */
const sharedRows = (a: Int32Array, b: Int32Array): number => {
  let shared = 0
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++
    else if (a[i]! > b[j]!) j++
    else {
      shared++
      i++
      j++
    }
  }
  return shared
}

/** r of columns i and j from their pair sums. */
const pearsonFromSums = (rows: number, columns: ReadonlyArray<CentredColumn>, sums: PairSums, i: number, j: number) => {
  const x = columns[i]!
  const y = columns[j]!
  const products = sums.products[i]![j - i - 1]!
  if (x.constant || y.constant) return null
  // Neither misses a value: the columns' own sums of squares are the pair's.
  if (x.missingRows.length === 0 && y.missingRows.length === 0) return clampedRatio(products, x.squares, y.squares)
  const dxSum = sums.joint.sums[i * columns.length + j]!
  const dxxSum = sums.joint.squares[i * columns.length + j]!
  const dySum = sums.joint.sums[j * columns.length + i]!
  const dyySum = sums.joint.squares[j * columns.length + i]!
  const count = rows - x.missingRows.length - y.missingRows.length + sharedRows(x.missingRows, y.missingRows)
  if (count < 2) return null
  const xx = dxxSum - (dxSum * dxSum) / count
  const yy = dyySum - (dySum * dySum) / count
  // Constant over the joint rows (though not overall) leaves only rounding noise here; pandas reports NaN.
  if (xx <= dxxSum * 1e-13 || yy <= dyySum * 1e-13) return null
  return clampedRatio(products - (dxSum * dySum) / count, xx, yy)
}

/** r for every pair i < j of the columns, row-major: (0, 1), (0, 2), …, (1, 2), … */
export const pearsonPairs = (columns: ReadonlyArray<CentredColumn>, rows: number): Array<number | null> => {
  const sums = pairSums(columns, rows)
  const result: Array<number | null> = []
  for (let i = 0; i < columns.length; i++) {
    for (let j = i + 1; j < columns.length; j++) result.push(pearsonFromSums(rows, columns, sums, i, j))
  }
  return result
}
