// The correlation ratio η of a numeric column given a categorical one, over rows where both are present:
// sqrt(between-category sum of squares / total sum of squares), 0 when the category says nothing about the number
// and 1 when it determines it; null when the numbers are constant (or absent) over those rows.
//
// A wide table has many such pairs (12 numeric × 7 categorical columns = 84 in the 1M-row benchmark), and most of
// the columns miss a few values. Three passes with a missing-value branch per such pair cost ~570 ms there; here
// each column is prepared once (the numeric ones as CentredColumns, shared with Pearson) and a pair costs one
// branchless pass `sums[code] += deviation`, the missing rows being corrected from short lists of their indices.
// Deviations from the present mean also keep a tiny η accurate: 3.0e-6 came out 2e-8 off with raw sums, 3e-12 now.

import type { CentredColumn } from "../numeric/centredColumn.ts"
import type { PreparedCategorical } from "./preparedCategorical.ts"
import { positionOf, tileRows } from "./rowTiles.ts"

// Four numeric columns at a time against a categorical column: its codes are read once for the four, and a
// category's four sums sit side by side (sums[4·code + k]), in one cache line. Each sum still adds its rows in row
// order, so the sums are the same to the bit as one pass per pair. Rows go in tiles that stay in cache while every
// pair meets in them, and the corrections for missing values are made there too: those rows are scattered, and
// looked up across whole columns they missed the cache. The 84 pairs of the 1M-row benchmark, preparation
// included: ~240 ms (four categorical columns per pass over a numeric one, corrections afterwards) → ~150 ms
// (medians of 7 in one process, alternating).

/** Adds the deviations (see CentredColumn) of a, b, c and d over rows [start, end) to their categories' sums. */
const addCategorySums4 = (
  codes: Int32Array,
  a: CentredColumn, b: CentredColumn, c: CentredColumn, d: CentredColumn,
  start: number, end: number, sums: Float64Array
) => {
  const { source: as, sourceShift: aShift } = a
  const { source: bs, sourceShift: bShift } = b
  const { source: cs, sourceShift: cShift } = c
  const { source: ds, sourceShift: dShift } = d
  for (let row = start; row < end; row++) {
    const slot = codes[row]! << 2
    sums[slot]! += as[row]! - aShift
    sums[slot + 1]! += bs[row]! - bShift
    sums[slot + 2]! += cs[row]! - cShift
    sums[slot + 3]! += ds[row]! - dShift
  }
}

/** What η needs of a numeric column given a categorical one, missing category last in each array. */
export interface EtaSums {
  /** Σ deviation by category. */
  readonly sums: Float64Array
  /** Rows by category where the numeric value is present. */
  readonly counts: Float64Array
  /** Σ deviation² over rows where the category is present. */
  readonly squares: number
}

/** A row missing the number counts in no category: takes missingRows[from, to) off each categorical's counts. */
const uncountMissingNumbers = (
  categoricals: ReadonlyArray<PreparedCategorical>, missingRows: Int32Array, from: number, to: number,
  counts: ReadonlyArray<Float64Array>
) => {
  categoricals.forEach(({ codes }, i) => {
    const categoryCounts = counts[i]!
    for (let index = from; index < to; index++) categoryCounts[codes[missingRows[index]!]!]!--
  })
}

/** A row missing the category adds nothing to the spread: takes missingRows[from, to) off each Σ deviation². */
const subtractMissingCategories = (
  numerics: ReadonlyArray<CentredColumn>, missingRows: Int32Array, from: number, to: number, squares: Float64Array
) => {
  numerics.forEach(({ source, sourceShift }, j) => {
    let sum = squares[j]!
    for (let index = from; index < to; index++) {
      const deviation = source[missingRows[index]!]! - sourceShift
      sum -= deviation * deviation
    }
    squares[j] = sum
  })
}

const withMissingSlot = (counts: Float64Array): Float64Array => {
  const slots = new Float64Array(counts.length + 1)
  slots.set(counts)
  return slots
}

/** EtaSums of every pair, at [categorical][numeric]. */
export const etaSums = (
  categoricals: ReadonlyArray<PreparedCategorical>,
  numerics: ReadonlyArray<CentredColumn>,
  rows: number
): Array<Array<EtaSums>> => {
  const groups = Math.ceil(numerics.length / 4)
  const interleaved = categoricals.map(({ categoryCount }) =>
    Array.from({ length: groups }, () => new Float64Array(4 * (categoryCount + 1))))
  // counts[numeric][categorical] and squares[categorical][numeric] start from the columns' own, over all rows.
  const counts = numerics.map(() => categoricals.map((categorical) => withMissingSlot(categorical.counts)))
  const squares = categoricals.map(() => Float64Array.from(numerics, (numeric) => numeric.squares))
  const numericCursors = numerics.map(() => 0)
  const categoricalCursors = categoricals.map(() => 0)
  for (let start = 0; start < rows; start += tileRows) {
    const end = Math.min(rows, start + tileRows)
    categoricals.forEach(({ codes }, i) => {
      for (let group = 0; group < groups; group++) {
        // A last group short of four is padded with its first column; the padding's sums are never read.
        const a = numerics[4 * group]!
        const [b, c, d] = [numerics[4 * group + 1] ?? a, numerics[4 * group + 2] ?? a, numerics[4 * group + 3] ?? a]
        addCategorySums4(codes, a, b, c, d, start, end, interleaved[i]![group]!)
      }
    })
    numerics.forEach(({ missingRows }, j) => {
      const from = numericCursors[j]!
      numericCursors[j] = positionOf(missingRows, from, end)
      uncountMissingNumbers(categoricals, missingRows, from, numericCursors[j]!, counts[j]!)
    })
    categoricals.forEach(({ missingRows }, i) => {
      const from = categoricalCursors[i]!
      categoricalCursors[i] = positionOf(missingRows, from, end)
      subtractMissingCategories(numerics, missingRows, from, categoricalCursors[i]!, squares[i]!)
    })
  }
  return categoricals.map(({ categoryCount }, i) =>
    numerics.map((_, j) => {
      const group = interleaved[i]![j >> 2]!
      const sums = Float64Array.from({ length: categoryCount + 1 }, (_, code) => group[4 * code + (j & 3)]!)
      return { sums, counts: counts[j]![i]!, squares: squares[i]![j]! }
    }))
}

/** η of a pair from its EtaSums; `values`, the numeric column, only for a pair constant where both are present. */
export const correlationRatio = (
  numeric: CentredColumn,
  categorical: PreparedCategorical,
  values: Float64Array,
  { sums, counts, squares }: EtaSums
): number | null => {
  if (numeric.constant) return null
  const { categoryCount } = categorical
  let count = 0
  let sum = 0
  for (let code = 0; code < categoryCount; code++) {
    count += counts[code]!
    sum += sums[code]!
  }
  if (count === 0) return null
  const mean = sum / count
  const totalSquares = squares - sum * mean
  // Constant over the joint rows (though not overall) leaves only rounding noise here: decide it exactly.
  if (!(totalSquares > squares * 1e-12)) return exactCorrelationRatio(values, categorical.codes, categoryCount)
  return ratioOfSquares(sums, counts, categoryCount, mean, totalSquares)
}

/** The two-pass definition over rows with both values present; codes ≥ categoryCount count as missing. */
const exactCorrelationRatio = (values: Float64Array, codes: Int32Array, categoryCount: number): number | null => {
  const sums = new Float64Array(categoryCount)
  const counts = new Float64Array(categoryCount)
  let total = 0
  let count = 0
  let first = NaN
  let constant = true
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!
    const code = codes[row]!
    if (code < 0 || code >= categoryCount || Number.isNaN(value)) continue
    if (count === 0) first = value
    constant &&= value === first
    sums[code]! += value
    counts[code]!++
    total += value
    count++
  }
  if (count === 0 || constant) return null
  const mean = total / count
  let totalSquares = 0
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!
    const code = codes[row]!
    if (code < 0 || code >= categoryCount || Number.isNaN(value)) continue
    totalSquares += (value - mean) * (value - mean)
  }
  if (!(totalSquares > 0)) return null
  return ratioOfSquares(sums, counts, categoryCount, mean, totalSquares)
}

/** η from the first `categoryCount` categories' sums and counts: √(between-category / total squares), at most 1. */
const ratioOfSquares = (
  sums: Float64Array,
  counts: Float64Array,
  categoryCount: number,
  mean: number,
  totalSquares: number
): number => {
  let betweenSquares = 0
  for (let code = 0; code < categoryCount; code++) {
    const n = counts[code]!
    if (n === 0) continue
    const deviation = sums[code]! / n - mean
    betweenSquares += n * deviation * deviation
  }
  return Math.min(1, Math.sqrt(betweenSquares / totalSquares))
}
