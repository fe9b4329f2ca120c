import { SqlClient, type SqlError } from "effect/sql"
import type { ConsumedEvent } from "@synth/contracts"
import { jsonRows, type Writers } from "@synth/sql"
import { Effect } from "effect"

type PiiScanEvent = Extract<
  ConsumedEvent<"datasetsProjection">,
  { readonly type: "dataset.pii-scan-requested" | "dataset.pii-scanned" | "dataset.pii-scan-failed" }
>

/**
 * Folds sensitive-data scan events into `dataset_pii_scans` (and has_pii_analysis of `datasets`), many events to a
 * statement. Like the profile columns, a request id only replaces an older one and an outcome is recorded unless one
 * for a later request already is, so redelivery and replays converge. A request for a dataset that is gone (deleted
 * meanwhile) adds no row.
 */
export const piiScanWriters: Writers<PiiScanEvent, SqlError.SqlError, SqlClient.SqlClient> = {
  "dataset.pii-scan-requested": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const requests = jsonRows(events, ({ event: { payload }, meta }) => ({
        dataset_id: payload.datasetId,
        scan: payload.scan,
        request_id: meta.envelope.eventId
      }))
      return sql`
        INSERT INTO dataset_pii_scans (dataset_id, scan, request_id)
        SELECT dataset_id, scan, request_id
        FROM jsonb_to_recordset(${requests}::jsonb) AS request(dataset_id uuid, scan text, request_id uuid)
        WHERE EXISTS (SELECT 1 FROM datasets WHERE id = request.dataset_id)
        ON CONFLICT (dataset_id, scan) DO UPDATE SET request_id = EXCLUDED.request_id
        WHERE dataset_pii_scans.request_id IS NULL OR dataset_pii_scans.request_id < EXCLUDED.request_id`
    }),
  "dataset.pii-scanned": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const outcomes = jsonRows(events, ({ event: { payload }, meta }) => ({
        dataset_id: payload.datasetId,
        scan: payload.scan,
        result_blob_key: payload.resultBlobKey,
        request_id: meta.envelope.causationId
      }))
      // The datasets whose scan row took the outcome gain has_pii_analysis.
      return sql`
        WITH recorded AS (
          UPDATE dataset_pii_scans SET status = 'scanned', result_blob_key = outcome.result_blob_key,
            failure_message = NULL, outcome_request_id = outcome.request_id
          FROM jsonb_to_recordset(${outcomes}::jsonb)
            AS outcome(dataset_id uuid, scan text, result_blob_key text, request_id uuid)
          WHERE dataset_pii_scans.dataset_id = outcome.dataset_id AND dataset_pii_scans.scan = outcome.scan
            AND (dataset_pii_scans.outcome_request_id IS NULL OR dataset_pii_scans.outcome_request_id <= outcome.request_id)
          RETURNING dataset_pii_scans.dataset_id
        )
        UPDATE datasets SET has_pii_analysis = true WHERE id IN (SELECT dataset_id FROM recorded)`
    }),
  "dataset.pii-scan-failed": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const outcomes = jsonRows(events, ({ event: { payload }, meta }) => ({
        dataset_id: payload.datasetId,
        scan: payload.scan,
        message: payload.message,
        request_id: meta.envelope.causationId
      }))
      return sql`
        UPDATE dataset_pii_scans SET status = 'failed', failure_message = outcome.message,
          outcome_request_id = outcome.request_id
        FROM jsonb_to_recordset(${outcomes}::jsonb) AS outcome(dataset_id uuid, scan text, message text, request_id uuid)
        WHERE dataset_pii_scans.dataset_id = outcome.dataset_id AND dataset_pii_scans.scan = outcome.scan
          AND (dataset_pii_scans.outcome_request_id IS NULL OR dataset_pii_scans.outcome_request_id <= outcome.request_id)`
    })
}
