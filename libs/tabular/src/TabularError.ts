import { Data } from "effect"

/**
 * Why a file could not become a table. Each reason maps to one client error (see services/gateway); `message` says
 * what was wrong and what to do. Messages name columns, line and record numbers, never cell values: they travel in
 * events and logs, which must not carry the data itself.
 */
export type TabularErrorReason =
  | "empty_file" // no bytes, only whitespace, or an empty JSON array
  | "no_data_rows" // a header (or column set) but not a single data row
  | "invalid_columns" // duplicate or blank column names
  | "unparseable_file" // not CSV / JSON / NDJSON, ragged rows, broken quoting, invalid JSON, binary content
  | "unsupported_encoding" // text in an encoding other than UTF-8, UTF-16 with BOM, Windows-1252 / ISO-8859-1

export class TabularError extends Data.TaggedError("TabularError")<{
  readonly reason: TabularErrorReason
  readonly message: string
}> {}
