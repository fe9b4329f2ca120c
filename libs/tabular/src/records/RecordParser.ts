import type { ColumnShape } from "./json/FlatColumns.ts"
import type { Cell } from "./RecordStream.ts"

/**
 * Rows per batch. Small on purpose: rows held for a batch outlive V8's young-generation collections and get copied
 * into the old generation, which dominated the profile. Open + iterate of a 100 MB 8-column CSV (Node 20, 64 KiB
 * chunks) ran at ~80 MB/s with 4096, 8192 or 16384 rows per batch and ~210 MB/s with 1024.
 */
export const BATCH_ROWS = 1024

/**
 * The longest record (CSV row, JSON element, NDJSON line) held while waiting for its end. It bounds memory when a
 * quote or bracket is never closed, and no real row comes near it.
 */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024

/** Turns pieces of text into rows; one per format. */
export interface RecordParser {
  /** For CSV the header, for JSON the columns seen so far. */
  readonly columns: ReadonlyArray<string>
  /** JSON only: each column's key path and value kinds, growing with `columns`. */
  readonly shapes?: ReadonlyArray<ColumnShape>
  /** True once the columns are known (CSV: the header was read; JSON: the first row was). */
  readonly started: boolean
  /** Parses what `text` completes; rows wait in the parser until taken. Throws TabularError for bad syntax. */
  push(text: string): void
  /** The text is over: parses what is left and fails on an unfinished record or a file without records. */
  end(): void
  readonly pendingRows: number
  takeRows(): Array<Array<Cell>>
}
