/**
 * The logical type of a column. Two chains, narrowest first: boolean ⊂ integer ⊂ float ⊂ string and
 * date ⊂ datetime ⊂ string. A column gets the narrowest type that every non-missing value fits; a column with no
 * value at all is a string column.
 */
export type ColumnType = "integer" | "float" | "boolean" | "date" | "datetime" | "string"

export interface ColumnSchema {
  readonly name: string
  readonly type: ColumnType
  readonly missingCount: number
  /** How the source wrote it, when that was resolved: "YYYY-MM-DD", "MM/DD/YYYY", "DD/MM/YYYY", "DD.MM.YYYY",
   *  "decimal-comma", "thousands-separator", "yes/no", "true/false", "1/0", ... ; null when nothing to say. */
  readonly sourceFormat: string | null
}
