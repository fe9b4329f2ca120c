import type { FileFormat, TextEncoding } from "../records/RecordStream.ts"
import type { ColumnSchema } from "./ColumnSchema.ts"

export interface IngestSummary {
  readonly format: FileFormat
  readonly encoding: TextEncoding
  readonly delimiter: string | null
  readonly rowCount: number
  readonly columns: ReadonlyArray<ColumnSchema>
  readonly cleaning: { readonly trimmedCells: number; readonly missingTokens: number; readonly standardisedValues: number }
}
