/**
 * The in-memory table every model and the quality score work on: columns of one length, numbers in typed arrays,
 * categories as codes into a list of labels. Converted from and to the normalised Arrow table at the edges
 * (arrow/), so models never touch Arrow or text.
 */

/** The logical column types of a normalised table (what ingestion inferred). */
export type ColumnType = "integer" | "float" | "boolean" | "date" | "datetime" | "string"

/**
 * integer and float as they are; date as days since 1970-01-01; datetime as milliseconds since the epoch (UTC).
 * `missing[i] === 1` marks a missing value (its slot in `values` is 0 and means nothing); null when none is missing.
 */
export interface ContinuousColumn {
  readonly kind: "continuous"
  readonly name: string
  readonly type: "integer" | "float" | "date" | "datetime"
  readonly values: Float64Array
  readonly missing: Uint8Array | null
  /** How the source wrote dates and datetimes (the `synth.sourceFormat` field metadata), kept for the output. */
  readonly sourceFormat: string | null
}

/** string and boolean columns: `codes[i]` indexes `categories`, -1 for a missing value. Booleans: ["false", "true"]. */
export interface CategoricalColumn {
  readonly kind: "categorical"
  readonly name: string
  readonly type: "string" | "boolean"
  readonly categories: ReadonlyArray<string>
  readonly codes: Int32Array
}

export type SynthColumn = ContinuousColumn | CategoricalColumn

/**
 * How the source file wrote its columns: its normalised table's schema metadata and each column's field metadata
 * other than `synth.type` (boolean spellings, date layouts, decimal marks...; keys in @synth/tabular's formKeys).
 * Never a value. A synthetic table carries its source's form so that it downloads written the same way.
 */
export interface TableForm {
  readonly table: Readonly<Record<string, string>>
  readonly columns: Readonly<Record<string, Readonly<Record<string, string>>>>
}

export interface SynthTable {
  readonly rowCount: number
  readonly columns: ReadonlyArray<SynthColumn>
  /** Absent for tables that never came from a file (a model's own sample before the protections add it). */
  readonly form?: TableForm
}
