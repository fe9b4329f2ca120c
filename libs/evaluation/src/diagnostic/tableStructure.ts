import type { SynthColumn, SynthTable } from "@synth/synth"

/**
 * The pandas dtype a column of each logical type has when the table is read as our ingestion types it (nullable
 * Int64 and boolean, datetime64 for dates and datetimes, object for strings): SDMetrics' TableStructure compares
 * dtypes, so a date column compares equal to a datetime one, as in pandas.
 */
export const pandasDtypeOf = (column: SynthColumn): string => {
  switch (column.type) {
    case "integer":
      return "Int64"
    case "float":
      return "float64"
    case "date":
    case "datetime":
      return "datetime64[ns]"
    case "boolean":
      return "boolean"
    case "string":
      return "object"
  }
}

export interface TableStructure {
  /** |columns (name, dtype) in both| / |in either|. */
  readonly score: number
  readonly missingColumns: ReadonlyArray<string>
  readonly extraColumns: ReadonlyArray<string>
  /** Columns in both tables whose dtypes differ. */
  readonly typeMismatches: ReadonlyArray<{ readonly column: string; readonly real: string; readonly synthetic: string }>
}

/**
 * SDMetrics' TableStructure: the Jaccard index of the two tables' sets of (column name, dtype). Columns named in
 * `byNameOnly` (faked or hashed by the generator: other values by design, possibly of another type) count by name.
 */
export const tableStructure = (real: SynthTable, synthetic: SynthTable, byNameOnly: ReadonlySet<string> = new Set()): TableStructure => {
  const key = (column: SynthColumn) => (byNameOnly.has(column.name) ? column.name : `${column.name}\u0000${pandasDtypeOf(column)}`)
  const realKeys = new Set(real.columns.map(key)), syntheticKeys = new Set(synthetic.columns.map(key))
  const union = new Set([...realKeys, ...syntheticKeys])
  const shared = [...realKeys].filter((entry) => syntheticKeys.has(entry)).length
  const syntheticByName = new Map(synthetic.columns.map((column) => [column.name, column]))
  const realNames = new Set(real.columns.map(({ name }) => name))
  return {
    score: union.size === 0 ? 1 : shared / union.size,
    missingColumns: real.columns.filter(({ name }) => !syntheticByName.has(name)).map(({ name }) => name),
    extraColumns: synthetic.columns.filter(({ name }) => !realNames.has(name)).map(({ name }) => name),
    typeMismatches: real.columns.flatMap((column) => {
      const partner = syntheticByName.get(column.name)
      if (partner === undefined || byNameOnly.has(column.name) || pandasDtypeOf(partner) === pandasDtypeOf(column)) return []
      return [{ column: column.name, real: pandasDtypeOf(column), synthetic: pandasDtypeOf(partner) }]
    })
  }
}
