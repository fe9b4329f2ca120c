import { SqlClient } from "effect/sql"
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
  }),
  /**
   * The dataset's profile: the blob key of the stored profile (has_profile once there is one), the latest request
   * event id and the request the latest outcome answers (uuid v7 ids: their order is the log's order), with that
   * outcome's status and failure message.
   */
  "0003_dataset_profiles": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      ALTER TABLE datasets
        ADD COLUMN profile_blob_key text,
        ADD COLUMN profile_request_id uuid,
        ADD COLUMN profile_outcome_request_id uuid,
        ADD COLUMN profile_status text,
        ADD COLUMN profile_failure_message text`
  }),
  /**
   * Sensitive-data scans, one row per dataset and scan kind (`basic`, `enhanced`): the latest request event id, the
   * request the latest outcome answers (uuid v7: the log's order), that outcome's status, the stored result's blob
   * key (kept across a later failure) and the failure message. The dataset's has_pii_analysis turns true with the
   * first stored result of either scan.
   */
  "0004_dataset_pii_scans": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      CREATE TABLE dataset_pii_scans (
        dataset_id uuid NOT NULL,
        scan text NOT NULL,
        request_id uuid,
        outcome_request_id uuid,
        status text,
        result_blob_key text,
        failure_message text,
        PRIMARY KEY (dataset_id, scan)
      )`
  })
}
