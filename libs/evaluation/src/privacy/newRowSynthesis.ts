import type { SynthTable } from "@synth/synth"
import { distanceTables, type DistanceColumn } from "./distanceTables.ts"

export interface NewRowSynthesis {
  /** Share of synthetic rows that match no real row (NaN for an empty synthetic table). */
  readonly score: number
  readonly newRows: number
  readonly matchedRows: number
}

type Matcher = (syntheticRow: number, realRow: number) => boolean

const columnMatcher = (column: DistanceColumn, tolerance: number): Matcher => {
  if (column.kind === "categorical") return (s, r) => column.rows[s] === column.reference[r]
  return (s, r) => {
    const value = column.rows[s]!, real = column.reference[r]!
    if (Number.isNaN(value)) return Number.isNaN(real)
    return Math.abs(real - value) <= Math.abs(tolerance * value)
  }
}

/** Index of the first entry of ascending `values` (over `order`) that is ≥ `bound`. */
const lowerBound = (values: Float64Array, order: Int32Array, bound: number): number => {
  let low = 0, high = order.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (values[order[middle]!]! < bound) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * SDMetrics' NewRowSynthesis: a synthetic row copies a real row when every column matches — categories equal,
 * numbers (dates and datetimes as numbers since the epoch) within |tolerance × the synthetic value| (0.01 by
 * default; 0 asks for identical values), a missing value only a missing value. Real rows are grouped by their
 * categories and, within a group, sorted by the first numeric column, so each synthetic row checks only the few
 * real rows in its window instead of all of them.
 */
export const newRowSynthesis = (real: SynthTable, synthetic: SynthTable, tolerance = 0.01): NewRowSynthesis => {
  const tables = distanceTables(synthetic, real)
  const categorical = tables.columns.filter((column) => column.kind === "categorical")
  const anchor = tables.columns.find((column) => column.kind === "continuous") ?? null
  const matchers = tables.columns.filter((column) => column !== anchor).map((column) => columnMatcher(column, tolerance))
  const keyOf = (ids: ReadonlyArray<Int32Array>, row: number) => ids.map((column) => column[row]).join(",")

  const groups = new Map<string, Array<number>>()
  for (let r = 0; r < tables.referenceCount; r++) {
    const key = keyOf(categorical.map((column) => column.reference), r)
    let group = groups.get(key)
    if (group === undefined) groups.set(key, (group = []))
    group.push(r)
  }
  // Per group: rows with the anchor present, ascending by it, and rows with it missing.
  const sorted = new Map<string, { readonly present: Int32Array; readonly missing: Int32Array }>()
  for (const [key, rows] of groups) {
    if (anchor === null) {
      sorted.set(key, { present: Int32Array.from(rows), missing: new Int32Array(0) })
      continue
    }
    const values = anchor.reference
    const present = Int32Array.from(rows.filter((r) => !Number.isNaN(values[r]!))).sort((a, b) => values[a]! - values[b]!)
    sorted.set(key, { present, missing: Int32Array.from(rows.filter((r) => Number.isNaN(values[r]!))) })
  }

  const matchesAll = (s: number, r: number) => matchers.every((matches) => matches(s, r))
  let matchedRows = 0
  for (let s = 0; s < tables.rowCount; s++) {
    const group = sorted.get(keyOf(categorical.map((column) => column.rows), s))
    if (group === undefined) continue
    let matched = false
    if (anchor === null) matched = group.present.some((r) => matchesAll(s, r))
    else {
      const value = anchor.rows[s]!
      if (Number.isNaN(value)) matched = group.missing.some((r) => matchesAll(s, r))
      else {
        const slack = Math.abs(tolerance * value)
        // A window a little wider than the tolerance; the exact test is SDMetrics' |r − s| ≤ |tolerance·s|.
        const margin = slack + Math.abs(value) * 1e-12
        const values = anchor.reference
        for (let i = lowerBound(values, group.present, value - margin); i < group.present.length; i++) {
          const r = group.present[i]!
          if (values[r]! > value + margin) break
          if (Math.abs(values[r]! - value) <= slack && matchesAll(s, r)) {
            matched = true
            break
          }
        }
      }
    }
    if (matched) matchedRows++
  }
  const rows = tables.rowCount
  return { score: rows === 0 ? NaN : (rows - matchedRows) / rows, newRows: rows - matchedRows, matchedRows }
}
