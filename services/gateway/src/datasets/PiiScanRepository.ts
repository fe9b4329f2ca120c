import { SqlClient } from "effect/sql"
import type { PiiScanKind } from "@synth/contracts"
import { Context, Effect, Layer, Option } from "effect"
import { isUuid } from "./DatasetRepository.ts"

export interface PiiScanRow {
  readonly datasetId: string
  readonly scan: PiiScanKind
  /** The latest request's event id. */
  readonly requestId: string | null
  /** The request event the latest outcome answers. */
  readonly outcomeRequestId: string | null
  readonly status: "scanned" | "failed" | null
  /** The stored result's blob; null until the first result. */
  readonly resultBlobKey: string | null
  readonly failureMessage: string | null
}

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
      const rows = yield* sql<PiiScanRow>`
        SELECT ${columns} FROM dataset_pii_scans WHERE dataset_id = ${datasetId} AND scan = ${scan}`
      return Option.fromNullishOr(rows[0])
    }, Effect.orDie)

    /** Both scans' rows of a dataset (none, one or two). */
    const findAll = Effect.fn("PiiScanRepository.findAll")(function* (datasetId: string) {
      if (!isUuid(datasetId)) return [] as ReadonlyArray<PiiScanRow>
      return yield* sql<PiiScanRow>`SELECT ${columns} FROM dataset_pii_scans WHERE dataset_id = ${datasetId} ORDER BY scan`
    }, Effect.orDie)

    return { find, findAll } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
