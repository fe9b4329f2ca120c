/** The forms GET /datasets/{id}/download answers in (its `format` query parameter); CSV when none is asked for. */
export const downloadFormats = ["csv", "json", "ndjson", "parquet"] as const
export type DownloadFormat = (typeof downloadFormats)[number]
