import type { Random, SynthColumn, SynthTable } from "@synth/synth"

const takeColumn = (column: SynthColumn, rows: Int32Array): SynthColumn => {
  if (column.kind === "categorical") return { ...column, codes: rows.map((row) => column.codes[row]!) }
  const missing = column.missing
  return {
    ...column,
    values: Float64Array.from(rows, (row) => column.values[row]!),
    missing: missing === null ? null : Uint8Array.from(rows, (row) => missing[row]!)
  }
}

/** The given rows of a table, in that order. */
export const takeRows = (table: SynthTable, rows: Int32Array): SynthTable => ({
  rowCount: rows.length,
  columns: table.columns.map((column) => takeColumn(column, rows))
})

/**
 * At most `limit` distinct rows drawn uniformly without replacement (a partial Fisher–Yates shuffle), kept in table
 * order; the table itself when it has no more rows than that. The privacy metrics are quadratic in the rows, so
 * they run on such samples.
 */
export const sampleRows = (table: SynthTable, limit: number, random: Random): SynthTable => {
  if (table.rowCount <= limit) return table
  const pool = Int32Array.from({ length: table.rowCount }, (_, i) => i)
  for (let i = 0; i < limit; i++) {
    const j = i + random.integer(table.rowCount - i)
    const swap = pool[i]!
    pool[i] = pool[j]!
    pool[j] = swap
  }
  return takeRows(table, pool.slice(0, limit).sort())
}
