import { SqlClient } from "effect/sql"
import { Effect } from "effect"

/**
 * The evaluation read model: one row per evaluation, `running` from the request until completed (the results' blob
 * key and headline scores) or failed (the error). Timestamps are the events' ISO strings, so a replay reproduces
 * responses byte for byte.
 */
export const evaluationMigrations = {
  "0006_evaluations": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      CREATE TABLE evaluations (
        id uuid PRIMARY KEY,
        owner_id uuid NOT NULL,
        generator_id uuid NOT NULL,
        kind text NOT NULL,
        real_dataset_id uuid NOT NULL,
        synthetic_dataset_id uuid NOT NULL,
        holdout_dataset_id uuid,
        sample_size integer NOT NULL,
        ml_utility jsonb,
        seed bigint NOT NULL,
        status text NOT NULL,
        results_blob_key text,
        overall_score float8,
        quality_level text,
        privacy_score float8,
        duration_ms float8,
        error jsonb,
        created_at text NOT NULL,
        completed_at text
      )`
    yield* sql`CREATE INDEX evaluations_owner_newest ON evaluations (owner_id, id DESC)`
  })
}
