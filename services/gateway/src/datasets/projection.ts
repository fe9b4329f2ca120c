import { SqlClient } from "effect/sql"
import { consumedBy, type DomainEvent } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { absurd, Effect } from "effect"
import { applyPiiScanEvent } from "./piiScanProjection.ts"

const projected = consumedBy("datasetsProjection")

/**
 * Folds dataset events into the `datasets` read model. Idempotent: the upload inserts ON CONFLICT DO NOTHING, the
 * ingestion outcome only moves a row that is still `processing` (first outcome wins), and a deletion removes the
 * row, after which late outcomes of the same dataset match nothing. Profile requests and outcomes only move the
 * row forward: a request id (uuid v7, time-ordered) replaces an older one, an outcome is recorded unless one for a
 * later request already is.
 */
export const applyDatasetEvent = (event: DomainEvent, meta: StoredEvent) =>
  Effect.gen(function* () {
    if (!projected(event)) return
    const sql = yield* SqlClient.SqlClient
    const at = meta.envelope.occurredAt
    switch (event.type) {
      case "dataset.uploaded": {
        const uploaded = event.payload
        yield* sql`
          INSERT INTO datasets (id, owner_id, filename, status, source, file_size, sha256, created_at)
          VALUES (${uploaded.datasetId}, ${uploaded.ownerId}, ${uploaded.filename}, 'processing', 'uploaded',
            ${uploaded.fileSize}, ${uploaded.sha256}, ${at})
          ON CONFLICT DO NOTHING`
        return
      }
      case "dataset.ingested": {
        const { cleaning, columnCount, columns, datasetId, delimiter, encoding, format, rowCount, tableBlobKey } =
          event.payload
        yield* sql`
          UPDATE datasets SET
            status = 'uploaded', row_count = ${rowCount}, column_count = ${columnCount}, format = ${format},
            encoding = ${encoding}, delimiter = ${delimiter}, columns = ${JSON.stringify(columns)}::jsonb,
            cleaning = ${JSON.stringify(cleaning)}::jsonb, table_blob_key = ${tableBlobKey}, ingested_at = ${at}
          WHERE id = ${datasetId} AND status = 'processing'`
        return
      }
      case "dataset.ingest-failed":
        yield* sql`
          UPDATE datasets SET status = 'failed', failure_reason = ${event.payload.reason},
            failure_message = ${event.payload.message}
          WHERE id = ${event.payload.datasetId} AND status = 'processing'`
        return
      case "dataset.profile-requested":
        yield* sql`
          UPDATE datasets SET profile_request_id = ${meta.envelope.eventId}
          WHERE id = ${event.payload.datasetId}
            AND (profile_request_id IS NULL OR profile_request_id < ${meta.envelope.eventId})`
        return
      case "dataset.profiled": {
        const requestId = meta.envelope.causationId
        yield* sql`
          UPDATE datasets SET has_profile = true, profile_blob_key = ${event.payload.profile.blobKey},
            profile_status = 'profiled', profile_failure_message = NULL, profile_outcome_request_id = ${requestId}
          WHERE id = ${event.payload.datasetId}
            AND (profile_outcome_request_id IS NULL OR profile_outcome_request_id <= ${requestId})`
        return
      }
      case "dataset.profile-failed": {
        const requestId = meta.envelope.causationId
        yield* sql`
          UPDATE datasets SET profile_status = 'failed', profile_failure_message = ${event.payload.message},
            profile_outcome_request_id = ${requestId}
          WHERE id = ${event.payload.datasetId}
            AND (profile_outcome_request_id IS NULL OR profile_outcome_request_id <= ${requestId})`
        return
      }
      case "dataset.pii-scan-requested":
      case "dataset.pii-scanned":
      case "dataset.pii-scan-failed":
        return yield* applyPiiScanEvent(event, meta)
      case "dataset.synthesized": {
        const made = event.payload
        yield* sql`
          INSERT INTO datasets (id, owner_id, filename, status, source, generator_id, file_size, sha256, row_count,
            column_count, columns, table_blob_key, created_at, ingested_at)
          VALUES (${made.datasetId}, ${made.ownerId}, ${made.filename}, 'uploaded', 'synthetic', ${made.generatorId},
            ${made.tableSize}, ${made.sha256}, ${made.rowCount}, ${made.columnCount}, ${JSON.stringify(made.columns)}::jsonb,
            ${made.tableBlobKey}, ${at}, ${at})
          ON CONFLICT DO NOTHING`
        return
      }
      case "dataset.deleted":
        yield* sql`DELETE FROM dataset_pii_scans WHERE dataset_id = ${event.payload.datasetId}`
        yield* sql`DELETE FROM datasets WHERE id = ${event.payload.datasetId}`
        return
      default:
        return absurd<void>(event)
    }
  })
