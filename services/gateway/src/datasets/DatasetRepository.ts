import { SqlClient } from "effect/sql"
import { CleaningCounts, DatasetEncoding, DatasetFormat, IngestedColumn, IngestFailureReason } from "@synth/contracts"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { rowsOf } from "../readModelRows.ts"

export const DatasetStatus = Schema.Literals(["processing", "uploaded", "failed"])
export type DatasetStatus = typeof DatasetStatus.Type

export type StoredColumn = typeof IngestedColumn.Type
export type StoredCleaning = typeof CleaningCounts.Type

/** A `datasets` row as the repository reads it (bigint counts are cast to float8; jsonb comes back parsed). */
export const DatasetRow = Schema.Struct({
  id: Schema.String,
  ownerId: Schema.String,
  filename: Schema.String,
  status: DatasetStatus,
  source: Schema.Literals(["uploaded", "synthetic"]),
  generatorId: Schema.NullOr(Schema.String),
  fileSize: Schema.Number,
  rowCount: Schema.NullOr(Schema.Number),
  columnCount: Schema.NullOr(Schema.Int),
  format: Schema.NullOr(DatasetFormat),
  encoding: Schema.NullOr(DatasetEncoding),
  delimiter: Schema.NullOr(Schema.String),
  columns: Schema.NullOr(Schema.Array(IngestedColumn)),
  cleaning: Schema.NullOr(CleaningCounts),
  failureReason: Schema.NullOr(IngestFailureReason),
  failureMessage: Schema.NullOr(Schema.String),
  tableBlobKey: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  hasProfile: Schema.Boolean,
  hasPiiAnalysis: Schema.Boolean,
  /** The stored profile's blob; null until the first profile. */
  profileBlobKey: Schema.NullOr(Schema.String),
  /** The latest profile request's event id. */
  profileRequestId: Schema.NullOr(Schema.String),
  /** The request event the latest profiling outcome answers. */
  profileOutcomeRequestId: Schema.NullOr(Schema.String),
  profileStatus: Schema.NullOr(Schema.Literals(["profiled", "failed"])),
  profileFailureMessage: Schema.NullOr(Schema.String)
})
export type DatasetRow = typeof DatasetRow.Type

const datasetRows = rowsOf("datasets", DatasetRow)

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A string that could be a dataset id; anything else names no dataset (and must not reach a `uuid` column). */
export const isUuid = (value: string) => uuidPattern.test(value)

/** Statuses a user can see; a failed upload was answered with its error and never appears. */
const visible = ["processing", "uploaded"] as const

/** Queries on the `datasets` read model. SQL errors are defects here (answered as internal errors, logged). */
export class DatasetRepository extends Context.Service<DatasetRepository>()("@synth/gateway/DatasetRepository", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`
      id, owner_id AS "ownerId", filename, status, source, generator_id AS "generatorId",
      file_size::float8 AS "fileSize", row_count::float8 AS "rowCount", column_count AS "columnCount", format,
      encoding, delimiter, columns, cleaning, failure_reason AS "failureReason", failure_message AS "failureMessage",
      table_blob_key AS "tableBlobKey", created_at AS "createdAt", has_profile AS "hasProfile",
      has_pii_analysis AS "hasPiiAnalysis", profile_blob_key AS "profileBlobKey",
      profile_request_id::text AS "profileRequestId", profile_outcome_request_id::text AS "profileOutcomeRequestId",
      profile_status AS "profileStatus", profile_failure_message AS "profileFailureMessage"`

    /** Any status, any owner: what the waiting upload polls. */
    const findById = Effect.fn("DatasetRepository.findById")(function* (id: string) {
      if (!isUuid(id)) return Option.none<DatasetRow>()
      return yield* datasetRows.first(yield* sql`SELECT ${columns} FROM datasets WHERE id = ${id}`)
    }, Effect.orDie)

    /** The owner's dataset if it is visible; none for another user's, a failed or a deleted one. */
    const findVisible = Effect.fn("DatasetRepository.findVisible")(function* (id: string, ownerId: string) {
      if (!isUuid(id)) return Option.none<DatasetRow>()
      return yield* datasetRows.first(yield* sql`
        SELECT ${columns} FROM datasets
        WHERE id = ${id} AND owner_id = ${ownerId} AND status IN ${sql.in(visible)}`)
    }, Effect.orDie)

    /** One page of the owner's visible datasets, newest first (uuid v7 ids sort by time), after `before` if given. */
    const listVisible = Effect.fn("DatasetRepository.listVisible")(function* (
      ownerId: string,
      options: { readonly limit: number; readonly before: Option.Option<string> }
    ) {
      const after = Option.match(options.before, { onNone: () => sql``, onSome: (id) => sql`AND id < ${id}` })
      return yield* datasetRows.all(yield* sql`
        SELECT ${columns} FROM datasets
        WHERE owner_id = ${ownerId} AND status IN ${sql.in(visible)} ${after}
        ORDER BY id DESC LIMIT ${options.limit}`)
    }, Effect.orDie)

    return { findById, findVisible, listVisible } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
