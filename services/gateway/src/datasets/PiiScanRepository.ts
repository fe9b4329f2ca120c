import { SqlClient } from "effect/sql"
import { PiiScanKind } from "@synth/contracts"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { rowsOf } from "../readModelRows.ts"
import { isUuid } from "./DatasetRepository.ts"

export const PiiScanRow = Schema.Struct({
  datasetId: Schema.String,
  scan: PiiScanKind,
  /** The latest request's event id. */
  requestId: Schema.NullOr(Schema.String),
  /** The request event the latest outcome answers. */
  outcomeRequestId: Schema.NullOr(Schema.String),
  status: Schema.NullOr(Schema.Literals(["scanned", "failed"])),
  /** The stored result's blob; null until the first result. */
  resultBlobKey: Schema.NullOr(Schema.String),
  failureMessage: Schema.NullOr(Schema.String)
})
export type PiiScanRow = typeof PiiScanRow.Type

const piiScanRows = rowsOf("dataset_pii_scans", PiiScanRow)

/** A request whose outcome the row does not show yet. */
export const isRunning = (row: PiiScanRow) =>
  row.requestId !== null && (row.outcomeRequestId === null || row.outcomeRequestId < row.requestId)

/** Queries on `dataset_pii_scans`. SQL errors are defects here (answered as internal errors, logged). */
export class PiiScanRepository extends Context.Service<PiiScanRepository>()("@synth/gateway/PiiScanRepository", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`
      dataset_id::text AS "datasetId", scan, request_id::text AS "requestId",
      outcome_request_id::text AS "outcomeRequestId", status, result_blob_key AS "resultBlobKey",
      failure_message AS "failureMessage"`

    const find = Effect.fn("PiiScanRepository.find")(function* (datasetId: string, scan: PiiScanKind) {
      if (!isUuid(datasetId)) return Option.none<PiiScanRow>()
      return yield* piiScanRows.first(yield* sql`
        SELECT ${columns} FROM dataset_pii_scans WHERE dataset_id = ${datasetId} AND scan = ${scan}`)
    }, Effect.orDie)

    /** Both scans' rows of a dataset (none, one or two). */
    const findAll = Effect.fn("PiiScanRepository.findAll")(function* (datasetId: string) {
      if (!isUuid(datasetId)) return [] as ReadonlyArray<PiiScanRow>
      return yield* piiScanRows.all(
        yield* sql`SELECT ${columns} FROM dataset_pii_scans WHERE dataset_id = ${datasetId} ORDER BY scan`
      )
    }, Effect.orDie)

    return { find, findAll } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
