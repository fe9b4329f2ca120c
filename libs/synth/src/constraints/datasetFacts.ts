import type { ColumnType, SynthTable } from "../table.ts"
import { valueInColumnUnits } from "./values.ts"

/**
 * What the validation of a request's rules knows of the dataset: each column's type and, where known, its range, its
 * labels and its repeated values. The worker knows everything (factsOfTable, from the table itself); the gateway knows
 * what the stored profile says (factsOfProfile), so it can answer 422 before a job starts, and leaves the rest to the
 * worker's check of the real rows.
 */
export interface ColumnFacts {
  readonly name: string
  readonly type: ColumnType
  /** Smallest and largest present value in the column's units (days, milliseconds for dates and datetimes); null: unknown or no value. */
  readonly range: { readonly min: number; readonly max: number } | null
  /** Strings: every label that occurs, when known in full; null otherwise (and for booleans, whose labels are false and true). */
  readonly labels: ReadonlyArray<string> | null
  /** Present values that repeat an earlier one (what `unique` on this column alone breaks); null: unknown. */
  readonly duplicates: number | null
}

export interface DatasetFacts {
  readonly columns: ReadonlyArray<ColumnFacts>
}

export const factsOfTable = (table: SynthTable): DatasetFacts => ({
  columns: table.columns.map((column): ColumnFacts => {
    if (column.kind === "categorical") {
      const counts = new Float64Array(column.categories.length)
      let present = 0
      for (const code of column.codes) {
        if (code < 0) continue
        counts[code]! += 1
        present++
      }
      const occurring = column.categories.filter((_, code) => counts[code]! > 0)
      return {
        name: column.name,
        type: column.type,
        range: null,
        labels: column.type === "boolean" ? null : occurring,
        duplicates: present - occurring.length
      }
    }
    let min = Number.POSITIVE_INFINITY
    let max = Number.NEGATIVE_INFINITY
    const seen = new Set<number>()
    let present = 0
    column.values.forEach((value, row) => {
      if (column.missing?.[row] === 1) return
      present++
      seen.add(value)
      if (value < min) min = value
      if (value > max) max = value
    })
    return {
      name: column.name,
      type: column.type,
      range: present === 0 ? null : { min, max },
      labels: null,
      duplicates: present - seen.size
    }
  })
})

/** The fields of a profile's column (contracts' ColumnProfile) the facts read. */
export interface ProfiledColumn {
  readonly name: string
  readonly type: ColumnType
  readonly missing_count: number
  readonly unique_count: number
  readonly min?: number | string | null
  readonly max?: number | string | null
  readonly most_frequent?: ReadonlyArray<string>
  readonly most_frequent_masked?: boolean
}

/** The profile lists a string column's ten most frequent labels: all of them when it has ten or fewer, unmasked. */
const profiledLabels = (column: ProfiledColumn): ReadonlyArray<string> | null =>
  column.type === "string" && column.most_frequent !== undefined && column.most_frequent_masked !== true &&
    column.most_frequent.length === column.unique_count
    ? column.most_frequent
    : null

const profiledRange = (column: ProfiledColumn): ColumnFacts["range"] => {
  if (column.type === "string" || column.type === "boolean") return null
  if (column.min === undefined || column.max === undefined || column.min === null || column.max === null) return null
  const min = valueInColumnUnits(column.type, column.min)
  const max = valueInColumnUnits(column.type, column.max)
  return min === null || max === null ? null : { min, max }
}

/** The facts a dataset's profile gives (row_count and its columns), for the gateway's check before a job starts. */
export const factsOfProfile = (profile: { readonly row_count: number; readonly columns: ReadonlyArray<ProfiledColumn> }): DatasetFacts => ({
  columns: profile.columns.map((column) => ({
    name: column.name,
    type: column.type,
    range: profiledRange(column),
    labels: profiledLabels(column),
    duplicates: profile.row_count - column.missing_count - column.unique_count
  }))
})

/** Names and types alone (a stored model's plan): enough to check a later sample's conditions for shape and type. */
export const factsOfColumnTypes = (columns: ReadonlyArray<{ readonly name: string; readonly type: ColumnType }>): DatasetFacts => ({
  columns: columns.map(({ name, type }) => ({ name, type, range: null, labels: null, duplicates: null }))
})
