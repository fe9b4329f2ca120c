import { SqlClient } from "effect/sql"
import type { DomainEvent } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { Effect } from "effect"

type PiiScanEvent = Extract<
  DomainEvent,
  { readonly type: "dataset.pii-scan-requested" | "dataset.pii-scanned" | "dataset.pii-scan-failed" }
>

/**
 * Folds sensitive-data scan events into `dataset_pii_scans` (and has_pii_analysis of `datasets`). Like the profile
 * columns, a request id only replaces an older one and an outcome is recorded unless one for a later request
 * already is, so redelivery and replays converge. A request for a dataset that is gone (deleted meanwhile) adds no row.
 */
export const applyPiiScanEvent = (event: PiiScanEvent, meta: StoredEvent) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { datasetId, scan } = event.payload
    switch (event.type) {
      case "dataset.pii-scan-requested": {
        const requestId = meta.envelope.eventId
        yield* sql`
          INSERT INTO dataset_pii_scans (dataset_id, scan, request_id)
          SELECT ${datasetId}, ${scan}, ${requestId} WHERE EXISTS (SELECT 1 FROM datasets WHERE id = ${datasetId})
          ON CONFLICT (dataset_id, scan) DO UPDATE SET request_id = EXCLUDED.request_id
          WHERE dataset_pii_scans.request_id IS NULL OR dataset_pii_scans.request_id < EXCLUDED.request_id`
        return
      }
      case "dataset.pii-scanned": {
        const requestId = meta.envelope.causationId
        const updated = yield* sql`
          UPDATE dataset_pii_scans SET status = 'scanned', result_blob_key = ${event.payload.resultBlobKey},
            failure_message = NULL, outcome_request_id = ${requestId}
          WHERE dataset_id = ${datasetId} AND scan = ${scan}
            AND (outcome_request_id IS NULL OR outcome_request_id <= ${requestId})
          RETURNING dataset_id`
        if (updated.length > 0) yield* sql`UPDATE datasets SET has_pii_analysis = true WHERE id = ${datasetId}`
        return
      }
      case "dataset.pii-scan-failed": {
        const requestId = meta.envelope.causationId
        yield* sql`
          UPDATE dataset_pii_scans SET status = 'failed', failure_message = ${event.payload.message},
            outcome_request_id = ${requestId}
          WHERE dataset_id = ${datasetId} AND scan = ${scan}
            AND (outcome_request_id IS NULL OR outcome_request_id <= ${requestId})`
        return
      }
    }
  })
