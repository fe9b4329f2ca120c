import {
  EmptyDataset,
  type IngestFailureReason,
  InvalidColumns,
  UnparseableFile,
  UnsupportedEncoding
} from "@synth/contracts"

const advice: Record<IngestFailureReason, string> = {
  empty_file: "The file is empty. Upload a CSV with a header row and at least one data row, or a JSON array of objects.",
  no_data_rows: "The file has column names but no data rows. Add at least one row and upload it again.",
  invalid_columns: "Column names must be unique and not blank. Rename the columns and upload the file again.",
  unparseable_file:
    "The file could not be read as CSV, a JSON array of objects or newline-delimited JSON. Check its format and upload it again.",
  unsupported_encoding:
    "The file's character encoding is not supported. Save it as UTF-8 (preferred), UTF-16 with a BOM or Windows-1252 and upload it again."
}

/**
 * The client error for an upload that ingestion refused. The ingest service's message says what was wrong and what
 * to do (it names columns and lines, never values); the advice stands in when there is none.
 */
export const ingestFailureError = (reason: IngestFailureReason, message: string | null) => {
  const detail = message === null || message.trim() === "" ? advice[reason] : message.trim()
  switch (reason) {
    case "empty_file":
    case "no_data_rows":
      return new EmptyDataset({ detail })
    case "invalid_columns":
      return new InvalidColumns({ detail })
    case "unparseable_file":
      return new UnparseableFile({ detail })
    case "unsupported_encoding":
      return new UnsupportedEncoding({ detail })
  }
}
