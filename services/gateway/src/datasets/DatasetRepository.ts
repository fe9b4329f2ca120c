import { SqlClient } from "effect/sql"
import type { IngestFailureReason } from "@synth/contracts"
import { Context, Effect, Layer, Option } from "effect"

export type DatasetStatus = "processing" | "uploaded" | "failed"

export interface StoredColumn {
  readonly name: string
  readonly type: "integer" | "float" | "boolean" | "date" | "datetime" | "string"
  readonly missingCount: number
  readonly sourceFormat: string | null
}

export interface StoredCleaning {
  readonly trimmedCells: number
  readonly missingTokens: number
  readonly standardisedValues: number
}

export interface DatasetRow {
  readonly id: string
  readonly ownerId: string
  readonly filename: string
  readonly status: DatasetStatus
  readonly source: "uploaded" | "synthetic"
  readonly generatorId: string | null
  readonly fileSize: number
  readonly rowCount: number | null
  readonly columnCount: number | null
  readonly format: "csv" | "json" | "ndjson" | null
  readonly encoding: "utf-8" | "utf-8-bom" | "utf-16le" | "utf-16be" | "windows-1252" | null
  readonly delimiter: string | null
  readonly columns: ReadonlyArray<StoredColumn> | null
  readonly cleaning: StoredCleaning | null
  readonly failureReason: IngestFailureReason | null
  readonly failureMessage: string | null
  readonly tableBlobKey: string | null
  readonly createdAt: string
  readonly hasProfile: boolean
  readonly hasPiiAnalysis: boolean
  /** The stored profile's blob; null until the first profile. */
  readonly profileBlobKey: string | null
  /** The latest profile request's event id. */
  readonly profileRequestId: string | null
  /** The request event the latest profiling outcome answers. */
  readonly profileOutcomeRequestId: string | null
  readonly profileStatus: "profiled" | "failed" | null
  readonly profileFailureMessage: string | null
}

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
      const rows = yield* sql<DatasetRow>`SELECT ${columns} FROM datasets WHERE id = ${id}`
      return Option.fromNullishOr(rows[0])
    }, Effect.orDie)

    /** The owner's dataset if it is visible; none for another user's, a failed or a deleted one. */
    const findVisible = Effect.fn("DatasetRepository.findVisible")(function* (id: string, ownerId: string) {
      if (!isUuid(id)) return Option.none<DatasetRow>()
      const rows = yield* sql<DatasetRow>`
        SELECT ${columns} FROM datasets
        WHERE id = ${id} AND owner_id = ${ownerId} AND status IN ${sql.in(visible)}`
      return Option.fromNullishOr(rows[0])
    }, Effect.orDie)

    /** One page of the owner's visible datasets, newest first (uuid v7 ids sort by time), after `before` if given. */
    const listVisible = Effect.fn("DatasetRepository.listVisible")(function* (
      ownerId: string,
      options: { readonly limit: number; readonly before: Option.Option<string> }
    ) {
      const after = Option.match(options.before, { onNone: () => sql``, onSome: (id) => sql`AND id < ${id}` })
      return yield* sql<DatasetRow>`
        SELECT ${columns} FROM datasets
        WHERE owner_id = ${ownerId} AND status IN ${sql.in(visible)} ${after}
        ORDER BY id DESC LIMIT ${options.limit}`
    }, Effect.orDie)

    return { findById, findVisible, listVisible } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
