import { SqlClient, type SqlError } from "effect/sql"
import { type ConsumedEvent, consumedBy } from "@synth/contracts"
import { jsonRows, type Projected, writeInWaves, type Writers } from "@synth/sql"
import { Effect } from "effect"
import { piiScanWriters } from "./piiScanProjection.ts"

const projected = consumedBy("datasetsProjection")

type DatasetEvent = ConsumedEvent<"datasetsProjection">

const isProjected = (candidate: Projected): candidate is Projected<DatasetEvent> => projected(candidate.event)

const writers: Writers<DatasetEvent, SqlError.SqlError, SqlClient.SqlClient> = {
  "dataset.uploaded": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const uploads = jsonRows(events, ({ event: { payload }, meta }) => ({
        id: payload.datasetId,
        owner_id: payload.ownerId,
        filename: payload.filename,
        file_size: payload.fileSize,
        sha256: payload.sha256,
        created_at: meta.envelope.occurredAt
      }))
      return sql`
        INSERT INTO datasets (id, owner_id, filename, status, source, file_size, sha256, created_at)
        SELECT id, owner_id, filename, 'processing', 'uploaded', file_size, sha256, created_at
        FROM jsonb_to_recordset(${uploads}::jsonb)
          AS upload(id uuid, owner_id uuid, filename text, file_size bigint, sha256 text, created_at text)
        ON CONFLICT DO NOTHING`
    }),
  "dataset.ingested": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const outcomes = jsonRows(events, ({ event: { payload }, meta }) => ({
        id: payload.datasetId,
        row_count: payload.rowCount,
        column_count: payload.columnCount,
        format: payload.format,
        encoding: payload.encoding,
        delimiter: payload.delimiter,
        columns: payload.columns,
        cleaning: payload.cleaning,
        table_blob_key: payload.tableBlobKey,
        ingested_at: meta.envelope.occurredAt
      }))
      return sql`
        UPDATE datasets SET
          status = 'uploaded', row_count = outcome.row_count, column_count = outcome.column_count,
          format = outcome.format, encoding = outcome.encoding, delimiter = outcome.delimiter,
          columns = outcome.columns, cleaning = outcome.cleaning, table_blob_key = outcome.table_blob_key,
          ingested_at = outcome.ingested_at
        FROM jsonb_to_recordset(${outcomes}::jsonb) AS outcome(id uuid, row_count bigint, column_count integer,
          format text, encoding text, delimiter text, columns jsonb, cleaning jsonb, table_blob_key text, ingested_at text)
        WHERE datasets.id = outcome.id AND datasets.status = 'processing'`
    }),
  "dataset.ingest-failed": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const outcomes = jsonRows(events, ({ event: { payload } }) => ({
        id: payload.datasetId,
        reason: payload.reason,
        message: payload.message
      }))
      return sql`
        UPDATE datasets SET status = 'failed', failure_reason = outcome.reason, failure_message = outcome.message
        FROM jsonb_to_recordset(${outcomes}::jsonb) AS outcome(id uuid, reason text, message text)
        WHERE datasets.id = outcome.id AND datasets.status = 'processing'`
    }),
  "dataset.profile-requested": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const requests = jsonRows(events, ({ event: { payload }, meta }) => ({
        id: payload.datasetId,
        request_id: meta.envelope.eventId
      }))
      return sql`
        UPDATE datasets SET profile_request_id = request.request_id
        FROM jsonb_to_recordset(${requests}::jsonb) AS request(id uuid, request_id uuid)
        WHERE datasets.id = request.id
          AND (datasets.profile_request_id IS NULL OR datasets.profile_request_id < request.request_id)`
    }),
  "dataset.profiled": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const outcomes = jsonRows(events, ({ event: { payload }, meta }) => ({
        id: payload.datasetId,
        blob_key: payload.profile.blobKey,
        request_id: meta.envelope.causationId
      }))
      return sql`
        UPDATE datasets SET has_profile = true, profile_blob_key = outcome.blob_key, profile_status = 'profiled',
          profile_failure_message = NULL, profile_outcome_request_id = outcome.request_id
        FROM jsonb_to_recordset(${outcomes}::jsonb) AS outcome(id uuid, blob_key text, request_id uuid)
        WHERE datasets.id = outcome.id
          AND (datasets.profile_outcome_request_id IS NULL OR datasets.profile_outcome_request_id <= outcome.request_id)`
    }),
  "dataset.profile-failed": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const outcomes = jsonRows(events, ({ event: { payload }, meta }) => ({
        id: payload.datasetId,
        message: payload.message,
        request_id: meta.envelope.causationId
      }))
      return sql`
        UPDATE datasets SET profile_status = 'failed', profile_failure_message = outcome.message,
          profile_outcome_request_id = outcome.request_id
        FROM jsonb_to_recordset(${outcomes}::jsonb) AS outcome(id uuid, message text, request_id uuid)
        WHERE datasets.id = outcome.id
          AND (datasets.profile_outcome_request_id IS NULL OR datasets.profile_outcome_request_id <= outcome.request_id)`
    }),
  ...piiScanWriters,
  "dataset.synthesized": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const made = jsonRows(events, ({ event: { payload }, meta }) => ({
        id: payload.datasetId,
        owner_id: payload.ownerId,
        filename: payload.filename,
        generator_id: payload.generatorId,
        file_size: payload.tableSize,
        sha256: payload.sha256,
        row_count: payload.rowCount,
        column_count: payload.columnCount,
        columns: payload.columns,
        table_blob_key: payload.tableBlobKey,
        at: meta.envelope.occurredAt
      }))
      return sql`
        INSERT INTO datasets (id, owner_id, filename, status, source, generator_id, file_size, sha256, row_count,
          column_count, columns, table_blob_key, created_at, ingested_at)
        SELECT id, owner_id, filename, 'uploaded', 'synthetic', generator_id, file_size, sha256, row_count,
          column_count, columns, table_blob_key, at, at
        FROM jsonb_to_recordset(${made}::jsonb) AS made(id uuid, owner_id uuid, filename text, generator_id uuid,
          file_size bigint, sha256 text, row_count bigint, column_count integer, columns jsonb, table_blob_key text,
          at text)
        ON CONFLICT DO NOTHING`
    }),
  "dataset.deleted": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const ids = events.map(({ event }) => event.payload.datasetId)
      return Effect.andThen(
        sql`DELETE FROM dataset_pii_scans WHERE dataset_id = ANY(${ids}::uuid[])`,
        sql`DELETE FROM datasets WHERE id = ANY(${ids}::uuid[])`
      )
    })
}

/**
 * Folds dataset events into the `datasets` read model, a batch with one statement per event type and wave (the
 * events of one dataset go in successive waves). Idempotent: the upload inserts ON CONFLICT DO NOTHING, the
 * ingestion outcome only moves a row that is still `processing` (first outcome wins), and a deletion removes the
 * row, after which late outcomes of the same dataset match nothing. Profile requests and outcomes only move the
 * row forward: a request id (uuid v7, time-ordered) replaces an older one, an outcome is recorded unless one for a
 * later request already is.
 */
export const applyDatasetEvents = (events: ReadonlyArray<Projected>) =>
  writeInWaves(events.filter(isProjected), (event) => [event.payload.datasetId.toLowerCase()], writers)
