/** The logical type of a column, as @synth/tabular infers it. */
export type ColumnType = "integer" | "float" | "boolean" | "date" | "datetime" | "string"

/** Integer and float columns; NaN marks a missing value. */
export interface NumericColumn {
  readonly name: string
  readonly type: "integer" | "float"
  readonly values: Float64Array
}

/** Date and datetime columns as epoch milliseconds UTC; NaN marks a missing value. */
export interface TemporalColumn {
  readonly name: string
  readonly type: "date" | "datetime"
  readonly values: Float64Array
}

/**
 * String and boolean columns, dictionary-encoded: `codes[row]` indexes `categories`, -1 marks a missing value.
 * Booleans use the categories "false" and "true". Categories no row uses are allowed and ignored.
 */
export interface CategoricalColumn {
  readonly name: string
  readonly type: "string" | "boolean"
  readonly codes: Int32Array
  readonly categories: ReadonlyArray<string>
}

export type ProfileColumn = NumericColumn | TemporalColumn | CategoricalColumn

export interface ProfileInput {
  readonly rowCount: number
  readonly columns: ReadonlyArray<ProfileColumn>
}

export const isNumericColumn = (column: ProfileColumn): column is NumericColumn =>
  column.type === "integer" || column.type === "float"

export const isTemporalColumn = (column: ProfileColumn): column is TemporalColumn =>
  column.type === "date" || column.type === "datetime"

export const isCategoricalColumn = (column: ProfileColumn): column is CategoricalColumn =>
  column.type === "string" || column.type === "boolean"
