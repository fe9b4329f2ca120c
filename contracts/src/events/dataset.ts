import { Schema } from "effect"
import { DatasetId, GeneratorId, UserId } from "../ids.ts"
import { defineEvent, defineUpcaster } from "./define.ts"

/**
 * The dataset aggregate. Events carry metadata only: names, counts, schemas, blob keys and hashes, never a row or a
 * cell value, because the log is append-only and kept for audit. The bytes live in the blob store, under keys built
 * from the dataset id alone.
 */
export const DatasetFormat = Schema.Literals(["csv", "json", "ndjson"])
export const DatasetEncoding = Schema.Literals(["utf-8", "utf-8-bom", "utf-16le", "utf-16be", "windows-1252"])
export const ColumnType = Schema.Literals(["integer", "float", "boolean", "date", "datetime", "string"])
export type ColumnType = typeof ColumnType.Type

/** Why an uploaded file could not become a table (the reasons of @synth/tabular's TabularError). */
export const IngestFailureReason = Schema.Literals(["empty_file", "no_data_rows", "invalid_columns", "unparseable_file", "unsupported_encoding"])
export type IngestFailureReason = typeof IngestFailureReason.Type

const Count = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))

export const IngestedColumn = Schema.Struct({
  name: Schema.String,
  type: ColumnType,
  missingCount: Count,
  sourceFormat: Schema.NullOr(Schema.String)
})

export const CleaningCounts = Schema.Struct({
  trimmedCells: Count,
  missingTokens: Count,
  standardisedValues: Count
})

export const DatasetUploaded = defineEvent({
  type: "dataset.uploaded",
  version: 1,
  topic: "synth.dataset",
  description:
    "A user's file was stored as the original of a new dataset; ingestion has not run yet. The filename is the " +
    "client's, kept as data (never part of a blob key).",
  payload: Schema.Struct({
    datasetId: DatasetId,
    ownerId: UserId,
    filename: Schema.String,
    blobKey: Schema.String,
    fileSize: Count,
    sha256: Schema.String,
    declaredContentType: Schema.NullOr(Schema.String)
  })
})

export const DatasetIngested = defineEvent({
  type: "dataset.ingested",
  version: 1,
  topic: "synth.dataset",
  description:
    "The original was parsed, its column types inferred and a normalised typed table (Arrow IPC) stored beside it. " +
    "Carries the schema and counts, no values.",
  payload: Schema.Struct({
    datasetId: DatasetId,
    format: DatasetFormat,
    encoding: DatasetEncoding,
    delimiter: Schema.NullOr(Schema.String),
    rowCount: Count,
    columnCount: Count,
    columns: Schema.Array(IngestedColumn),
    tableBlobKey: Schema.String,
    tableSize: Count,
    cleaning: CleaningCounts
  })
})

export const DatasetIngestFailed = defineEvent({
  type: "dataset.ingest-failed",
  version: 1,
  topic: "synth.dataset",
  description:
    "The original could not become a table (empty, unparseable, unsupported encoding, bad column names); its blobs " +
    "were removed and the dataset never becomes visible. The message names columns or lines, never values.",
  payload: Schema.Struct({
    datasetId: DatasetId,
    reason: IngestFailureReason,
    message: Schema.String
  })
})

export const DatasetDeleted = defineEvent({
  type: "dataset.deleted",
  version: 1,
  topic: "synth.dataset",
  description: "The owner deleted the dataset irreversibly: its blobs and read-model rows are removed.",
  payload: Schema.Struct({ datasetId: DatasetId })
})

/** Why profiling produced no profile. */
export const ProfileFailureReason = Schema.Literal("unable_to_analyze")
export type ProfileFailureReason = typeof ProfileFailureReason.Type

export const DatasetProfileRequested = defineEvent({
  type: "dataset.profile-requested",
  version: 1,
  topic: "synth.dataset",
  description:
    "The owner asked for the dataset's profile (statistics, distributions, correlations, outliers, data quality). " +
    "A new request replaces the stored profile once it is computed.",
  payload: Schema.Struct({ datasetId: DatasetId })
})

/** v1 of `dataset.profiled`, superseded by v2: logs written before v2 hold it, so it stays decodable. */
export const DatasetProfiledV1 = defineEvent({
  type: "dataset.profiled",
  version: 1,
  topic: "synth.dataset",
  description:
    "The profiling service computed the dataset's profile and stored it as JSON in the blob store (overwriting an " +
    "earlier one). Carries the blob's key, hash and size, the counts and the quality score: no profile content, so " +
    "no value of the dataset.",
  payload: Schema.Struct({
    datasetId: DatasetId,
    profileBlobKey: Schema.String,
    profileSha256: Schema.String,
    profileSize: Count,
    rowCount: Count,
    columnCount: Count,
    dataQualityScore: Schema.Number.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 1 }))),
    level: Schema.Literals(["Excellent", "Good", "Fair", "Poor"]),
    warningCount: Count
  })
})

const ProfileQualityLevel = Schema.Literals(["Excellent", "Good", "Fair", "Poor"])

/**
 * v2 groups what v1 spread over flat fields. The quality verdict became one structured value (`quality`: score,
 * level, warning count, as the HTTP profile's `data_quality` groups them): a bare v1 `level` beside `rowCount` did
 * not say what it was the level of, and a new quality figure now has a place that is not the payload's top level.
 * The profile's blob became one reference (`profile`: key, hash, size) that a consumer checks and fetches together.
 */
export const DatasetProfiled = defineEvent({
  type: "dataset.profiled",
  version: 2,
  topic: "synth.dataset",
  description:
    "The profiling service computed the dataset's profile and stored it as JSON in the blob store (overwriting an " +
    "earlier one). Carries the blob's reference (key, hash, size), the counts and the quality verdict: no profile " +
    "content, so no value of the dataset.",
  payload: Schema.Struct({
    datasetId: DatasetId,
    profile: Schema.Struct({ blobKey: Schema.String, sha256: Schema.String, size: Count }),
    rowCount: Count,
    columnCount: Count,
    quality: Schema.Struct({
      score: Schema.Number.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 1 }))),
      level: ProfileQualityLevel,
      warningCount: Count
    })
  })
})

export const datasetProfiledV1ToV2 = defineUpcaster({
  from: DatasetProfiledV1,
  to: DatasetProfiled,
  description:
    "`profileBlobKey`, `profileSha256`, `profileSize` become `profile.blobKey`, `profile.sha256`, `profile.size`; " +
    "`dataQualityScore`, `level`, `warningCount` become `quality.score`, `quality.level`, `quality.warningCount`. " +
    "Nothing is lost or invented.",
  upcast: (v1) => ({
    datasetId: v1.datasetId,
    profile: { blobKey: v1.profileBlobKey, sha256: v1.profileSha256, size: v1.profileSize },
    rowCount: v1.rowCount,
    columnCount: v1.columnCount,
    quality: { score: v1.dataQualityScore, level: v1.level, warningCount: v1.warningCount }
  })
})

export const DatasetProfileFailed = defineEvent({
  type: "dataset.profile-failed",
  version: 1,
  topic: "synth.dataset",
  description:
    "The dataset's table could not be profiled (corrupt, missing or of a type the profiler cannot read). The message " +
    "names columns, never values; an earlier profile, if any, stays stored.",
  payload: Schema.Struct({
    datasetId: DatasetId,
    reason: ProfileFailureReason,
    message: Schema.String
  })
})

/** The two scans of POST /datasets/{id}/pii-detection and /pii-detection-enhanced. */
export const PiiScanKind = Schema.Literals(["basic", "enhanced"])
export type PiiScanKind = typeof PiiScanKind.Type

export const PiiRiskLevel = Schema.Literals(["low", "medium", "high"])
export type PiiRiskLevel = typeof PiiRiskLevel.Type

/** Which AI layer took part in an enhanced scan: a configured OpenAI-compatible model or the bundled classifier. */
export const PiiAiLayerKind = Schema.Literals(["openai", "local"])

export const DatasetPiiScanRequested = defineEvent({
  type: "dataset.pii-scan-requested",
  version: 1,
  topic: "synth.dataset",
  description:
    "The owner asked for a sensitive-data scan of the dataset: `basic` (patterns with validation, column names, " +
    "statistics) or `enhanced` (basic plus an AI layer). A new request replaces that scan's stored result.",
  payload: Schema.Struct({ datasetId: DatasetId, scan: PiiScanKind })
})

/** A flagged column as the log records it: its name, type and confidence, never a value (masked or not). */
export const PiiFindingSummary = Schema.Struct({
  column: Schema.String,
  type: Schema.String,
  category: Schema.String,
  confidence: Schema.Number.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 1 })))
})

export const DatasetPiiScanned = defineEvent({
  type: "dataset.pii-scanned",
  version: 1,
  topic: "synth.dataset",
  description:
    "The privacy service scanned a bounded sample of the dataset's rows and stored the result (with masked sample " +
    "values) as JSON in the blob store, replacing the earlier result of the same scan. Carries the blob's key, hash " +
    "and size and the flagged columns' names, types and confidences: no value of the dataset, not even masked.",
  payload: Schema.Struct({
    datasetId: DatasetId,
    scan: PiiScanKind,
    resultBlobKey: Schema.String,
    resultSha256: Schema.String,
    resultSize: Count,
    piiDetected: Schema.Boolean,
    riskLevel: PiiRiskLevel,
    findings: Schema.Array(PiiFindingSummary),
    quasiIdentifierSets: Count,
    scannedRows: Count,
    totalRows: Count,
    aiLayer: Schema.NullOr(Schema.Struct({ kind: PiiAiLayerKind, model: Schema.String, applied: Schema.Boolean })),
    warningCount: Count
  })
})

export const DatasetPiiScanFailed = defineEvent({
  type: "dataset.pii-scan-failed",
  version: 1,
  topic: "synth.dataset",
  description:
    "The dataset's table could not be scanned (corrupt, missing, or a bug of the scanner on this table). The " +
    "message names columns, never values; an earlier result of the same scan, if any, stays stored.",
  payload: Schema.Struct({
    datasetId: DatasetId,
    scan: PiiScanKind,
    reason: ProfileFailureReason,
    message: Schema.String
  })
})

export const DatasetSynthesized = defineEvent({
  type: "dataset.synthesized",
  version: 1,
  topic: "synth.dataset",
  description:
    "A generator wrote a synthetic table (Arrow IPC, the same columns and types as its training dataset): a new " +
    "dataset owned by the generator's owner, with source `synthetic`. Carries the schema and counts, no values.",
  payload: Schema.Struct({
    datasetId: DatasetId,
    ownerId: UserId,
    generatorId: GeneratorId,
    filename: Schema.String,
    rowCount: Count,
    columnCount: Count,
    columns: Schema.Array(IngestedColumn),
    tableBlobKey: Schema.String,
    tableSize: Count,
    sha256: Schema.String
  })
})

export const datasetEvents = [
  DatasetUploaded,
  DatasetIngested,
  DatasetIngestFailed,
  DatasetDeleted,
  DatasetProfileRequested,
  DatasetProfiled,
  DatasetProfileFailed,
  DatasetPiiScanRequested,
  DatasetPiiScanned,
  DatasetPiiScanFailed,
  DatasetSynthesized
] as const

/** Older versions of this aggregate's events, each with the upcaster that reads it as the next version. */
export const datasetUpcasters = [datasetProfiledV1ToV2] as const

export const DatasetEvent = Schema.Union(datasetEvents.map((definition) => definition.schema))
export type DatasetEvent = typeof DatasetEvent.Type
