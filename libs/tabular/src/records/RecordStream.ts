import type { FieldBatch } from "./FieldBatch.ts"
import type { ColumnShape } from "./json/FlatColumns.ts"

/**
 * The seam between reading bytes (encoding, format, CSV / JSON / NDJSON syntax) and making a typed table of them
 * (inference, normalisation, Arrow). Plain async iteration rather than Effect streams: this is the hot loop of an
 * upload, run over every cell twice (inference pass, conversion pass).
 */

/** One raw value: CSV gives strings only; JSON gives its scalars, nested objects flattened, arrays as JSON text. */
export type Cell = string | number | boolean | null

export type TextEncoding = "utf-8" | "utf-8-bom" | "utf-16le" | "utf-16be" | "windows-1252"

export type FileFormat = "csv" | "json" | "ndjson"

export interface RecordStream {
  readonly format: FileFormat
  readonly encoding: TextEncoding
  /** The CSV delimiter that was sniffed; null for JSON. */
  readonly delimiter: string | null
  /**
   * Column names in order of first appearance, trimmed and validated (no blanks, no duplicates). For CSV they are
   * the header and fixed; for JSON the array grows while `batches` is read and is final once it is done.
   */
  readonly columns: ReadonlyArray<string>
  /**
   * JSON only: per column, the keys that led to it (`["address", "city"]` for `address.city` flattened from a nested
   * object) and how many of its values were arrays; final once `batches` is done, like `columns`.
   */
  readonly shapes?: ReadonlyArray<ColumnShape>
  /**
   * Rows in batches (a few thousand rows each). `row[i]` is the value of `columns[i]`; a row shorter than `columns`
   * has missing values at the end. Iterating fails with a TabularError (thrown) when the file turns out bad.
   */
  readonly batches: AsyncIterable<ReadonlyArray<ReadonlyArray<Cell>>>
  /**
   * CSV only: the same rows as `batches`, as where their fields lie in the text (see FieldBatch), for pass 2 to
   * convert without a string per field. A batch is valid until the next one is asked for (its arrays are reused).
   * A stream is read once, through one of the two.
   */
  readonly fieldBatches?: AsyncIterable<FieldBatch>
}
