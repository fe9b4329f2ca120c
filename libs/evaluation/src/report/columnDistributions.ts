import type { CategoricalColumn, ContinuousColumn, SynthTable } from "@synth/synth"
import { pairColumns } from "../statistical/columnValues.ts"

/** Numeric bins over the real range; most columns read well at this resolution and the report stays small. */
const NUMERIC_BINS = 20
/** The most frequent real categories drawn one by one; the rest share one "other" bar. */
const TOP_CATEGORIES = 15

/** Shares of all rows (missing ones included), so each side's shares add up to 1. */
export interface NumericShares {
  readonly below: number
  readonly bins: ReadonlyArray<number>
  readonly above: number
  readonly missing: number
}

export interface NumericDistribution {
  readonly column: string
  readonly kind: "numeric"
  /** Dates count days since 1970-01-01, datetimes milliseconds since the epoch. */
  readonly type: ContinuousColumn["type"]
  /** Bin i is [edges[i], edges[i + 1]) (the last one closed), equal widths over the real range; empty without real values. */
  readonly edges: ReadonlyArray<number>
  readonly real: NumericShares
  readonly synthetic: NumericShares
}

export interface CategoricalShares {
  /** Aligned with the distribution's `categories`. */
  readonly categories: ReadonlyArray<number>
  readonly other: number
  readonly missing: number
}

export interface CategoricalDistribution {
  readonly column: string
  readonly kind: "categorical"
  readonly type: CategoricalColumn["type"]
  /** The real data's most frequent categories, most frequent first (ties by label). */
  readonly categories: ReadonlyArray<string>
  readonly real: CategoricalShares
  readonly synthetic: CategoricalShares
}

export type ColumnDistribution = NumericDistribution | CategoricalDistribution

const shareOf = (count: number, rows: number) => (rows === 0 ? 0 : count / rows)

const realRange = (column: ContinuousColumn): { readonly min: number; readonly max: number } | null => {
  let min = Infinity
  let max = -Infinity
  column.values.forEach((value, row) => {
    if (column.missing?.[row] === 1) return
    if (value < min) min = value
    if (value > max) max = value
  })
  return min <= max ? { min, max } : null
}

const numericShares = (column: ContinuousColumn, edges: ReadonlyArray<number>): NumericShares => {
  const binCount = Math.max(0, edges.length - 1)
  const bins = new Array<number>(binCount).fill(0)
  let below = 0, above = 0, missing = 0
  const min = edges[0] ?? 0
  const max = edges[binCount] ?? 0
  const width = binCount === 0 ? 0 : (max - min) / binCount
  column.values.forEach((value, row) => {
    if (column.missing?.[row] === 1) missing++
    else if (binCount === 0 || value > max) above++
    else if (value < min) below++
    else bins[width === 0 ? 0 : Math.min(binCount - 1, Math.floor((value - min) / width))]! += 1
  })
  const rows = column.values.length
  return { below: shareOf(below, rows), bins: bins.map((count) => shareOf(count, rows)), above: shareOf(above, rows), missing: shareOf(missing, rows) }
}

const numericDistribution = (real: ContinuousColumn, synthetic: ContinuousColumn): NumericDistribution => {
  const range = realRange(real)
  // A constant real column gets one bin holding exactly its value.
  const binCount = range === null ? 0 : range.min === range.max ? 1 : NUMERIC_BINS
  const edges = range === null
    ? []
    : Array.from({ length: binCount + 1 }, (_, i) => (i === binCount ? range.max : range.min + ((range.max - range.min) * i) / binCount))
  return { column: real.name, kind: "numeric", type: real.type, edges, real: numericShares(real, edges), synthetic: numericShares(synthetic, edges) }
}

const labelCounts = (column: CategoricalColumn): { readonly counts: Map<string, number>; readonly missing: number } => {
  const byCode = new Array<number>(column.categories.length).fill(0)
  let missing = 0
  for (const code of column.codes) {
    if (code < 0) missing++
    else byCode[code]! += 1
  }
  const counts = new Map<string, number>()
  column.categories.forEach((label, code) => counts.set(label, (counts.get(label) ?? 0) + byCode[code]!))
  return { counts, missing }
}

const categoricalShares = (column: CategoricalColumn, categories: ReadonlyArray<string>): CategoricalShares => {
  const { counts, missing } = labelCounts(column)
  const rows = column.codes.length
  const shown = categories.map((label) => counts.get(label) ?? 0)
  const other = rows - missing - shown.reduce((sum, count) => sum + count, 0)
  return { categories: shown.map((count) => shareOf(count, rows)), other: shareOf(other, rows), missing: shareOf(missing, rows) }
}

const categoricalDistribution = (real: CategoricalColumn, synthetic: CategoricalColumn): CategoricalDistribution => {
  const { counts } = labelCounts(real)
  const categories = [...counts.entries()]
    .filter(([, count]) => count > 0)
    .sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, TOP_CATEGORIES)
    .map(([label]) => label)
  return {
    column: real.name,
    kind: "categorical",
    type: real.type,
    categories,
    real: categoricalShares(real, categories),
    synthetic: categoricalShares(synthetic, categories)
  }
}

/**
 * Each real column's distribution beside its synthetic namesake's, as shares of rows (aggregates only): numbers in
 * equal-width bins over the real range with what falls below or above it, categories as the real data's most
 * frequent ones plus "other". Category labels are the real data's values: only the top ones are kept.
 */
export const columnDistributions = (real: SynthTable, synthetic: SynthTable): ReadonlyArray<ColumnDistribution> =>
  pairColumns(real, synthetic).map((pair) =>
    pair.kind === "continuous" ? numericDistribution(pair.real, pair.synthetic) : categoricalDistribution(pair.real, pair.synthetic)
  )
