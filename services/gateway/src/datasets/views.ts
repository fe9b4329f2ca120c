import { type DatasetDetail, DatasetId, type DatasetListItem } from "@synth/contracts"
import type { DatasetRow } from "./DatasetRepository.ts"

/** A dataset as GET /datasets/ lists it. */
export const listItemOf = (row: DatasetRow): DatasetListItem => ({
  id: DatasetId.make(row.id),
  name: row.filename,
  row_count: row.rowCount,
  column_count: row.columnCount,
  created_at: row.createdAt,
  has_profile: row.hasProfile,
  has_pii_analysis: row.hasPiiAnalysis
})

/** A dataset as GET /datasets/{id} shows it. */
export const detailOf = (row: DatasetRow): DatasetDetail => ({
  ...listItemOf(row),
  status: row.status === "uploaded" ? "uploaded" : "processing",
  filename: row.filename,
  file_size: row.fileSize,
  upload_timestamp: row.createdAt,
  format: row.format,
  encoding: row.encoding,
  delimiter: row.delimiter,
  columns: (row.columns ?? []).map((column) => ({
    name: column.name,
    type: column.type,
    missing_count: column.missingCount,
    source_format: column.sourceFormat
  })),
  cleaning: {
    trimmed_cells: row.cleaning?.trimmedCells ?? 0,
    missing_tokens: row.cleaning?.missingTokens ?? 0,
    standardised_values: row.cleaning?.standardisedValues ?? 0
  },
  source: row.source,
  generator_id: row.generatorId as DatasetDetail["generator_id"]
})
