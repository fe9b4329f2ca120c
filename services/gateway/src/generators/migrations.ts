import { SqlClient } from "effect/sql"
import { Effect } from "effect"

/**
 * The generator read model. `generators`: one row per job, `running` (phase queued → fitting → sampling) until
 * completed, failed or cancelled; the current attempt's losses; timings; the model's format and size; the error.
 * `generator_outputs`: every dataset a generator is producing or produced (the job's output and each sample), so a
 * dataset id that is still being generated answers 409 rather than 404. Timestamps are the events' ISO strings, so
 * a replay reproduces responses byte for byte.
 */
export const generatorMigrations = {
  "0005_generators": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      CREATE TABLE generators (
        id uuid PRIMARY KEY,
        owner_id uuid NOT NULL,
        dataset_id uuid NOT NULL,
        generator_type text NOT NULL,
        parameters jsonb NOT NULL,
        seed bigint NOT NULL,
        status text NOT NULL,
        phase text,
        progress integer NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        output_dataset_id uuid NOT NULL,
        estimated_seconds float8 NOT NULL,
        loss_history jsonb NOT NULL DEFAULT '[]'::jsonb,
        started_at text,
        fit_ms float8,
        sample_ms float8,
        total_ms float8,
        model jsonb,
        error jsonb,
        created_at text NOT NULL,
        updated_at text NOT NULL
      )`
    yield* sql`CREATE INDEX generators_owner_newest ON generators (owner_id, id DESC)`
    yield* sql`
      CREATE TABLE generator_outputs (
        dataset_id uuid PRIMARY KEY,
        generator_id uuid NOT NULL,
        owner_id uuid NOT NULL,
        kind text NOT NULL,
        num_rows bigint NOT NULL,
        seed bigint NOT NULL,
        status text NOT NULL,
        error text,
        created_at text NOT NULL
      )`
    yield* sql`CREATE INDEX generator_outputs_by_generator ON generator_outputs (generator_id, created_at)`
  }),
  /**
   * The output protections (docs/privacy.md): `columns` holds each column's resolved role and handling (null until
   * the job resolved them); `privacy` the request's protection settings, then what the job's preparation and
   * completion report (training and holdout rows, the scan the roles came from, the protections' counts).
   */
  "0008_generator_privacy": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`ALTER TABLE generators ADD COLUMN columns jsonb`
    yield* sql`ALTER TABLE generators ADD COLUMN privacy jsonb`
  }),
  /**
   * Constraints and conditions (issue 26), as the request gave them: `rules` holds the generation's
   * `{ constraints, conditions }`, an output's `conditions` what its rows meet. Null for outputs without any.
   */
  "0010_generator_rules": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`ALTER TABLE generators ADD COLUMN rules jsonb`
    yield* sql`ALTER TABLE generator_outputs ADD COLUMN conditions jsonb`
  }),
  /** Why a sample failed (`generator.sample-failed`'s reason); null for samples that did not, or failed before it. */
  "0011_sample_failure_reason": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`ALTER TABLE generator_outputs ADD COLUMN error_reason text`
  })
}
