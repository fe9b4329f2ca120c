import type { FileFormat } from "./RecordStream.ts"

/**
 * The format the first non-whitespace character announces: `[` a JSON array, `{` NDJSON (a lone object is NDJSON
 * with one row), anything else CSV with a header row. Null while `text` is only whitespace.
 */
export const detectFormat = (text: string): FileFormat | null => {
  const first = text.trimStart().charAt(0)
  if (first === "") return null
  if (first === "[") return "json"
  if (first === "{") return "ndjson"
  return "csv"
}
