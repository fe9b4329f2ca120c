import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/**
 * The dataset read model: one row per dataset from upload to deletion (a deleted dataset's row is gone). Status
 * `processing` → `uploaded` | `failed`; a failed dataset is never shown, its row only answers the waiting upload.
 * Timestamps are the ISO strings of the events, so a replay reproduces responses byte for byte.
 */
export const datasetMigrations = {
  "0002_datasets": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      CREATE TABLE datasets (
        id uuid PRIMARY KEY,
        owner_id uuid NOT NULL,
        filename text NOT NULL,
        status text NOT NULL,
        source text NOT NULL,
        generator_id uuid,
        file_size bigint NOT NULL,
        sha256 text NOT NULL,
        row_count bigint,
        column_count integer,
        format text,
        encoding text,
        delimiter text,
        columns jsonb,
        cleaning jsonb,
        failure_reason text,
        failure_message text,
        table_blob_key text,
        created_at text NOT NULL,
        ingested_at text,
        has_profile boolean NOT NULL DEFAULT false,
        has_pii_analysis boolean NOT NULL DEFAULT false
      )`
    yield* sql`CREATE INDEX datasets_owner_newest ON datasets (owner_id, id DESC)`
  })
}
