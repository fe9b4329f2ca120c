import type { ColumnKind, ColumnSample, ScanInput } from "../types.ts"
import { columnTypeOf } from "@synth/tabular"
import type { Table, Vector } from "apache-arrow"

/**
 * Row indices of a bounded sample: evenly spaced over the whole table, so a table sorted by some column (dates, ids,
 * regions) is seen from end to end, and the same table always gives the same sample (a scan is reproducible).
 */
export const sampleRowIndices = (rowCount: number, maxRows: number): ReadonlyArray<number> => {
  if (rowCount <= maxRows) return Array.from({ length: rowCount }, (_, index) => index)
  return Array.from({ length: maxRows }, (_, index) => Math.floor((index * rowCount) / maxRows))
}

const millisecondsToDate = (milliseconds: number) => new Date(milliseconds).toISOString().slice(0, 10)

/** The scan's text form of a value: what the dataset's CSV download shows, unquoted. */
const textOf = (kind: ColumnKind, value: unknown): string | null => {
  if (value === null || value === undefined) return null
  switch (kind) {
    case "date":
      return millisecondsToDate(Number(value))
    case "datetime":
      return new Date(Number(value)).toISOString()
    case "boolean":
      return value ? "true" : "false"
    default:
      return String(value)
  }
}

/** Columns of a normalised table that this library did not write are read as text. */
const kindOf = (table: Table, column: number): ColumnKind => columnTypeOf(table.schema.fields[column]!) ?? "string"

/**
 * The scan's input from a normalised table: at most `maxRows` rows, row-aligned across columns. Only the sampled
 * rows are converted to text, so the cost past reading the table does not grow with its length.
 */
export const sampleScanInput = (table: Table, maxRows: number): ScanInput => {
  const rows = sampleRowIndices(table.numRows, maxRows)
  const columns: Array<ColumnSample> = table.schema.fields.map((field, column) => {
    const kind = kindOf(table, column)
    const vector = table.getChildAt(column) as Vector
    return { name: field.name, kind, values: rows.map((row) => textOf(kind, vector.get(row))) }
  })
  return { rowCount: table.numRows, columns }
}
