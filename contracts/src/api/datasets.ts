import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Multipart } from "effect/http"
import {
  EmptyDataset,
  FileTooLarge,
  InvalidColumns,
  MissingFile,
  NotCompleted,
  NotFound,
  UnableToAnalyze,
  UnparseableFile,
  UnsupportedEncoding,
  ValidationFailed,
  ServiceUnavailable
} from "../errors.ts"
import { ColumnType, DatasetEncoding, DatasetFormat } from "../events/dataset.ts"
import { DatasetId, GeneratorId, Timestamp } from "../ids.ts"
import { PiiDetectionResult, PiiFlags, PiiScanPending } from "./pii.ts"
import { Profile, ProfilePending } from "./profile.ts"
import { Authentication } from "../security.ts"
import { Located, Page } from "./responses.ts"

export const datasetPaging = { defaultLimit: 50, maxLimit: 500 } as const

const Count = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))

const filenameDescription =
  "The client's file name exactly as sent: data, never a path. It is not used to store anything, and is returned as given."

/** The answer of POST /datasets/upload once the file is a table. */
export const UploadResult = Schema.Struct({
  id: DatasetId,
  filename: Schema.String.annotate({ description: filenameDescription }),
  row_count: Count,
  column_count: Count,
  file_size: Count.annotate({ description: "bytes of the uploaded file" }),
  upload_timestamp: Timestamp,
  status: Schema.Literal("uploaded")
}).annotate({ identifier: "UploadResult" })
export type UploadResult = typeof UploadResult.Type

/** The answer of POST /datasets/upload when ingestion outlasts the wait: poll the Location. */
export const UploadAccepted = Schema.Struct({
  id: DatasetId,
  filename: Schema.String.annotate({ description: filenameDescription }),
  row_count: Schema.Null,
  column_count: Schema.Null,
  file_size: Count,
  upload_timestamp: Timestamp,
  status: Schema.Literal("processing")
}).annotate({ identifier: "UploadAccepted" })
export type UploadAccepted = typeof UploadAccepted.Type

export const DatasetListItem = Schema.Struct({
  id: DatasetId,
  name: Schema.String.annotate({ description: `The file name. ${filenameDescription}` }),
  row_count: Schema.NullOr(Count).annotate({ description: "null while the dataset is processing" }),
  column_count: Schema.NullOr(Count).annotate({ description: "null while the dataset is processing" }),
  created_at: Timestamp,
  has_profile: Schema.Boolean,
  has_pii_analysis: Schema.Boolean
}).annotate({ identifier: "DatasetListItem" })
export type DatasetListItem = typeof DatasetListItem.Type

export const DatasetColumn = Schema.Struct({
  name: Schema.String,
  type: ColumnType,
  missing_count: Count,
  source_format: Schema.NullOr(Schema.String).annotate({
    description: "how the source wrote the values when that was resolved (e.g. MM/DD/YYYY, decimal-comma, yes/no)"
  })
}).annotate({ identifier: "DatasetColumn" })

export const DatasetStatus = Schema.Literals(["processing", "uploaded"]).annotate({
  description:
    "processing: stored, being parsed and typed; uploaded: a table that can be downloaded. A file that cannot be " +
    "read is refused by the upload itself and never listed."
})

export const DatasetDetail = Schema.Struct({
  ...DatasetListItem.fields,
  status: DatasetStatus,
  filename: Schema.String.annotate({ description: filenameDescription }),
  file_size: Count,
  upload_timestamp: Timestamp,
  format: Schema.NullOr(DatasetFormat),
  encoding: Schema.NullOr(DatasetEncoding),
  delimiter: Schema.NullOr(Schema.String).annotate({ description: "the CSV delimiter; null for JSON" }),
  columns: Schema.Array(DatasetColumn),
  cleaning: Schema.Struct({
    trimmed_cells: Count,
    missing_tokens: Count,
    standardised_values: Count
  }).annotate({ description: "what ingestion changed: cells trimmed, missing-value tokens (NA, null, …) and values rewritten to one format" }),
  source: Schema.Literals(["uploaded", "synthetic"]),
  generator_id: Schema.NullOr(GeneratorId)
}).annotate({ identifier: "DatasetDetail" })
export type DatasetDetail = typeof DatasetDetail.Type

/** Path ids are plain strings: an id that is not a UUID names no dataset, so it is a 404 like any unknown id. */
export const DatasetPath = Schema.Struct({ dataset_id: Schema.String })

export const ListParams = Schema.Struct({
  limit: Schema.optional(
    Schema.NumberFromString.pipe(
      Schema.check(Schema.isInt({ message: "must be a whole number" })),
      Schema.check(Schema.isBetween({ minimum: 1, maximum: datasetPaging.maxLimit }, { message: `must be between 1 and ${datasetPaging.maxLimit}` }))
    )
  ),
  cursor: Schema.optional(Schema.String)
})

/** What GET /datasets/{id}/download writes. */
export const downloadFormats = ["csv", "json", "ndjson", "parquet"] as const
export type DownloadFormat = (typeof downloadFormats)[number]
/** `source`: each column as the uploaded file wrote it; `normalised`: ISO dates, true/false, plain numbers. */
export const downloadValueForms = ["source", "normalised"] as const
export type DownloadValueForm = (typeof downloadValueForms)[number]

/** A query value from a fixed list; the 422 names the allowed values (the schema's own message would not). */
const oneOf = <const Values extends ReadonlyArray<string>>(values: Values) =>
  Schema.String.pipe(
    Schema.refine((value): value is Values[number] => values.includes(value), {
      message: `must be one of ${values.join(", ")}`
    })
  )

export const DownloadParams = Schema.Struct({
  format: Schema.optionalKey(oneOf(downloadFormats)).annotate({
    description: "csv (default), json, ndjson or parquet"
  }),
  values: Schema.optionalKey(oneOf(downloadValueForms)).annotate({
    description: "source (default): each column as the uploaded file wrote it; normalised: ISO dates, true/false, plain numbers"
  })
})

export const UploadPayload = Schema.Struct({ file: Multipart.SingleFileSchema }).pipe(HttpApiSchema.asMultipartStream())

const uploadDescription = `Multipart form data with one file part named \`file\`: CSV with a header row (delimiter
detected), a JSON array of objects, or newline-delimited JSON; UTF-8 preferred, UTF-16 with a BOM and Windows-1252 are
decoded. The file streams to storage; at most MAX_FILE_SIZE bytes (100 MB by default), refused with 413 as soon as
the limit is passed, with \`Connection: close\` (the rest of the body is not read).

Answers 201 with \`Location: /datasets/{id}\` once the file is parsed, typed and cleaned; 202 with status
\`processing\` and the same Location when that takes longer than the server waits (UPLOAD_INGEST_TIMEOUT, 2 minutes by
default): poll the Location. A file that cannot be read answers 415 (encoding) or 422 (unparseable, empty, bad column
names), and nothing is kept. Missing \`file\` part or a body that is not multipart: 400 missing_file.`

const downloadDescription = `The dataset's table, streamed (memory does not grow with its size).

\`?format=\`: \`csv\` (the default; RFC 4180, UTF-8, CRLF, header row, missing values empty; \`text/csv;
charset=utf-8\`), \`json\` (an array of row objects; \`application/json\`), \`ndjson\` (one object per line;
\`application/x-ndjson\`) or \`parquet\` (\`application/vnd.apache.parquet\`: booleans BOOLEAN, integers INT32 or
INT64, floats DOUBLE, dates DATE, datetimes TIMESTAMP(MILLIS, UTC), text UTF8 strings; missing values null).

\`?values=\`: \`source\` (the default) writes each column as the uploaded file wrote it: booleans in its spelling
(Yes/No, y/n, 1/0, TRUE/FALSE...), dates and datetimes in its layout, numbers with its decimal comma and thousands
separators and as many decimals, CSV with its delimiter; JSON uploads with nested objects come back nested in JSON and
NDJSON. A synthetic dataset is written in the form of the dataset it imitates. \`normalised\` writes ISO 8601 dates
and datetimes, booleans true/false and plain numbers (whole floats as 2.0), CSV with commas. In JSON and NDJSON,
numbers, booleans and nulls are always JSON values and dates strings in the chosen form; Parquet is typed either way.
What "source form" means per type, and the cleaning an upload does (trimmed cells, missing-value tokens written as
empty): docs/datasets.md.

\`Content-Disposition: attachment\` names the file after the original with the format's extension (.csv, .json,
.ndjson, .parquet): an ASCII \`filename\` with unsafe characters replaced, and the exact name as RFC 5987
\`filename*=UTF-8''...\`. An unknown \`format\` or \`values\`: 422 validation_failed naming the parameter and its
allowed values. 404 as for GET /datasets/{dataset_id}; 409 not_completed while the dataset is processing.`

const profileDescription = `Computes the profile from the dataset's normalised table and stores it, replacing an
earlier one (GET /datasets/{dataset_id}/profile reads it back). Per column: type, missing and distinct counts; for
numbers min, max, mean, std, median, quantiles, skewness, kurtosis, a histogram and IQR outliers; for strings and
booleans the top 10 values with counts; for dates their range. Pearson correlations of numeric pairs, Cramér's V and
correlation ratios in \`associations\`, duplicate rows, and data quality: completeness, consistency, accuracy and
uniqueness (each 0..1 with how it was computed), their mean as data_quality_score with its level, and warnings.

Values of columns that look like identifiers or whose names denote personal data are masked in most_frequent
(most_frequent_masked: true); their counts stay exact.

Answers 200 with the profile once it is computed; 202 with status \`running\` and \`Location\` when that takes longer
than the server waits (PROFILE_TIMEOUT, 2 minutes by default): poll the Location. 422 unable_to_analyze when the
table cannot be analyzed (an earlier profile stays). 404 as for GET /datasets/{dataset_id}; 409 not_completed while
the dataset is still processing.`

const piiDetectionDescription = `Scans a bounded, evenly spaced sample of the dataset's rows (PII_SAMPLE_ROWS, 10 000 by
default, so a million-row dataset costs about what a 10 000-row one does) for personal data, per column: value
patterns with validation (checksums such as Luhn, mod 97, mod 11, ABA; strict formats), column names in several
languages and their neighbours, and statistics (near-unique identifiers, quasi-identifier combinations with a
k-anonymity estimate). Answers the sensitive-data detection result: findings with masked sample values and a
recommendation each, and an overall risk assessment; the result is stored (GET /datasets/{dataset_id}/pii-flags) and
the dataset's has_pii_analysis becomes true. 202 with status \`running\` and \`Location\` when the scan outlasts
PII_SCAN_TIMEOUT; 422 unable_to_analyze when the table cannot be read. 404 as for GET /datasets/{dataset_id}; 409
not_completed while the upload is still being processed.`

const piiEnhancedDescription = `The basic scan plus an AI layer that classifies columns from their names and masked value
shapes (\`Aaaa Aaaaa\`, \`999-99-9999\`; never values): an OpenAI-compatible model when the service is configured with
one (OPENAI_API_KEY, OPENAI_BASE_URL, LLM_MODEL), otherwise the classifier bundled with the service. \`ai_layer\` says
which ran. When the provider fails or times out the answer is the basic result with a warning (\`ai_layer.applied\`
false), never an error. Otherwise as POST /datasets/{dataset_id}/pii-detection.`

export class DatasetsGroup extends HttpApiGroup.make("datasets")
  .add(
    HttpApiEndpoint.post("upload", "/datasets/upload", {
      payload: UploadPayload,
      success: [Located(UploadResult.pipe(HttpApiSchema.status(201))), Located(UploadAccepted.pipe(HttpApiSchema.status(202)))],
      error: [MissingFile, FileTooLarge, UnsupportedEncoding, UnparseableFile, EmptyDataset, InvalidColumns, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Upload a CSV or JSON file as a new dataset")
      .annotate(OpenApi.Description, uploadDescription)
  )
  .add(
    HttpApiEndpoint.get("list", "/datasets/", {
      query: ListParams,
      success: Page(DatasetListItem),
      error: [ValidationFailed, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "The caller's datasets, newest first")
      .annotate(
        OpenApi.Description,
        `Only the caller's datasets, newest first, as a JSON array. Paging: \`?limit=\` (default
${datasetPaging.defaultLimit}, at most ${datasetPaging.maxLimit}); when more follow, an RFC 8288 \`Link: <...>; rel="next"\`
header names the next page (its \`cursor\` is opaque). No Link header: the last page.`
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/datasets/:dataset_id", {
      params: DatasetPath,
      success: DatasetDetail,
      error: [NotFound, NotCompleted, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "One dataset: its file, inferred schema and what cleaning changed")
      .annotate(
        OpenApi.Description,
        "404 for an unknown id, an id that is not a UUID, a deleted dataset or another user's dataset."
      )
  )
  .add(
    HttpApiEndpoint.get("download", "/datasets/:dataset_id/download", {
      params: DatasetPath,
      query: DownloadParams,
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv; charset=utf-8" })),
      error: [NotFound, NotCompleted, ValidationFailed, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "The dataset as CSV, JSON, NDJSON or Parquet, in the form it was uploaded in")
      .annotate(OpenApi.Description, downloadDescription)
  )
  .add(
    HttpApiEndpoint.delete("delete", "/datasets/:dataset_id", {
      params: DatasetPath,
      success: HttpApiSchema.NoContent,
      error: [NotFound, NotCompleted, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Delete a dataset irreversibly")
      .annotate(
        OpenApi.Description,
        "Removes the stored files and every derived record; answers 204, then 404 everywhere for this id."
      )
  )
  .add(
    HttpApiEndpoint.post("profile", "/datasets/:dataset_id/profile", {
      params: DatasetPath,
      success: [Profile, Located(ProfilePending.pipe(HttpApiSchema.status(202)))],
      error: [NotFound, NotCompleted, UnableToAnalyze, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Profile the dataset: statistics, distributions, correlations, outliers, data quality")
      .annotate(OpenApi.Description, profileDescription)
  )
  .add(
    HttpApiEndpoint.get("getProfile", "/datasets/:dataset_id/profile", {
      params: DatasetPath,
      success: Profile,
      error: [NotFound, NotCompleted, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "The dataset's stored profile")
      .annotate(
        OpenApi.Description,
        `The profile the last successful POST /datasets/{dataset_id}/profile computed. 404 not_found when there is
none yet (run the POST first), and as for GET /datasets/{dataset_id}; 409 not_completed while the first profiling of
the dataset is still running.`
      )
  )
  .add(
    HttpApiEndpoint.post("piiDetection", "/datasets/:dataset_id/pii-detection", {
      params: DatasetPath,
      success: [PiiDetectionResult, Located(PiiScanPending.pipe(HttpApiSchema.status(202)))],
      error: [NotFound, NotCompleted, UnableToAnalyze, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Scan the dataset for personal data: patterns, column names, statistics")
      .annotate(OpenApi.Description, piiDetectionDescription)
  )
  .add(
    HttpApiEndpoint.post("piiDetectionEnhanced", "/datasets/:dataset_id/pii-detection-enhanced", {
      params: DatasetPath,
      success: [PiiDetectionResult, Located(PiiScanPending.pipe(HttpApiSchema.status(202)))],
      error: [NotFound, NotCompleted, UnableToAnalyze, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Scan the dataset for personal data with the AI layer added")
      .annotate(OpenApi.Description, piiEnhancedDescription)
  )
  .add(
    HttpApiEndpoint.get("piiFlags", "/datasets/:dataset_id/pii-flags", {
      params: DatasetPath,
      success: PiiFlags,
      error: [NotFound, NotCompleted, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "The stored results of both sensitive-data scans")
      .annotate(
        OpenApi.Description,
        `The latest results of POST /datasets/{dataset_id}/pii-detection and /pii-detection-enhanced, null for a scan
never run. 404 not_found before any scan (run one of the POSTs first), and as for GET /datasets/{dataset_id}; 409
not_completed while the first scan of the dataset is still running.`
      )
  )
  .middleware(Authentication) {}
