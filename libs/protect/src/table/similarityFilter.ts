import type { SynthColumn, SynthTable } from "@synth/synth"
import { type KeyedBloomFilter, keyedBloomFilter } from "../keyedBloom.ts"
import { rowKeyer } from "./rowKeys.ts"

/** False positives only cost a needless redraw: 1 in 10,000 keeps those negligible at ~19 bits a real row. */
const rowFilterFalsePositives = 1e-4

/** The real rows (their learned columns, as the model saw them before any protection) as a keyed Bloom filter. */
export const realRowFilter = (real: SynthTable, key: string): KeyedBloomFilter => {
  const filter = keyedBloomFilter(real.rowCount, rowFilterFalsePositives, key)
  const keyOf = rowKeyer(real)
  for (let row = 0; row < real.rowCount; row++) filter.add(keyOf(row))
  return filter
}

export interface FilterOutcome {
  readonly table: SynthTable
  /** Rows that equalled a real row and were replaced by a fresh draw. */
  readonly filteredRows: number
  /** Rows that still equalled a real row after every redraw (a table whose columns allow few combinations). */
  readonly copiesKept: number
}

/** Redraw rounds: each draws twice the rows still to replace, so a model that copies often still converges. */
const maxRounds = 10

/** Column buffers the sample's rows are copied into, so that replaced rows can be written in place. */
const writable = (column: SynthColumn) =>
  column.kind === "categorical"
    ? { ...column, codes: Int32Array.from(column.codes), categories: [...column.categories] }
    : { ...column, values: Float64Array.from(column.values), missing: Uint8Array.from(column.missing ?? new Uint8Array(column.values.length)) }

type Writable = ReturnType<typeof writable>

const copyRow = (target: Writable, source: SynthColumn, from: number, to: number) => {
  if (target.kind === "categorical" && source.kind === "categorical") {
    const code = source.codes[from]!
    if (code < 0) {
      target.codes[to] = -1
      return
    }
    const label = source.categories[code]!
    let index = target.categories.indexOf(label)
    if (index < 0) index = target.categories.push(label) - 1
    target.codes[to] = index
  } else if (target.kind === "continuous" && source.kind === "continuous") {
    target.values[to] = source.values[from]!
    target.missing[to] = source.missing?.[from] ?? 0
  }
}

const finished = (columns: ReadonlyArray<Writable>): ReadonlyArray<SynthColumn> =>
  columns.map((column) =>
    column.kind === "continuous" && !column.missing.includes(1) ? { ...column, missing: null } : column
  )

/**
 * The similarity filter: every sampled row equal to a real row on all its columns (the real rows are the learned
 * columns of every row of the source, held out or not) is replaced by a fresh draw of the model, in rounds. A row
 * still equal to a real one after the last round is kept and counted: the columns allow so few combinations that
 * the model cannot avoid the real ones, and such a combination is shared by many people.
 */
export const filterRealRows = (
  sample: SynthTable,
  isReal: (rowKey: string) => boolean,
  redraw: (rows: number, round: number) => SynthTable
): FilterOutcome => {
  const keyOf = rowKeyer(sample)
  let pending: Array<number> = []
  for (let row = 0; row < sample.rowCount; row++) if (isReal(keyOf(row))) pending.push(row)
  const matched = pending.length
  if (matched === 0) return { table: sample, filteredRows: 0, copiesKept: 0 }
  const columns = sample.columns.map(writable)
  for (let round = 0; round < maxRounds && pending.length > 0; round++) {
    const fresh = redraw(pending.length * 2, round)
    const freshKey = rowKeyer(fresh)
    const still: Array<number> = []
    let next = 0
    for (const target of pending) {
      while (next < fresh.rowCount && isReal(freshKey(next))) next++
      if (next === fresh.rowCount) {
        still.push(target)
        continue
      }
      columns.forEach((column, index) => copyRow(column, fresh.columns[index]!, next, target))
      next++
    }
    pending = still
  }
  return {
    table: { rowCount: sample.rowCount, columns: finished(columns) },
    filteredRows: matched - pending.length,
    copiesKept: pending.length
  }
}
