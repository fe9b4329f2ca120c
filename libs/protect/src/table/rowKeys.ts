import type { SynthTable } from "@synth/synth"

const missingMark = "\u0000"
const separator = "\u0001"

/**
 * A row of the table as one string, column by column (numbers by their exact value, categories by label, a mark for
 * missing): two rows are equal when their keys are. Built per table, since each table has its own category codes.
 */
export const rowKeyer = (table: SynthTable): ((row: number) => string) => {
  const parts = table.columns.map((column) =>
    column.kind === "categorical"
      ? (row: number) => {
        const code = column.codes[row]!
        return code < 0 ? missingMark : column.categories[code]!
      }
      : (row: number) => (column.missing?.[row] === 1 ? missingMark : String(column.values[row]!))
  )
  return (row) => parts.map((part) => part(row)).join(separator)
}
