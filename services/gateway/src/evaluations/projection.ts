import { SqlClient, type SqlError } from "effect/sql"
import { type ConsumedEvent, consumedBy } from "@synth/contracts"
import { jsonRows, type Projected, writeInWaves, type Writers } from "@synth/sql"
import { Effect } from "effect"

const projected = consumedBy("evaluationsProjection")

type EvaluationEvent = ConsumedEvent<"evaluationsProjection">

const isProjected = (candidate: Projected): candidate is Projected<EvaluationEvent> => projected(candidate.event)

const writers: Writers<EvaluationEvent, SqlError.SqlError, SqlClient.SqlClient> = {
  "evaluation.requested": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const requests = jsonRows(events, ({ event: { payload: request }, meta }) => ({
        id: request.evaluationId,
        owner_id: request.ownerId,
        generator_id: request.generatorId,
        kind: request.kind,
        real_dataset_id: request.realDatasetId,
        synthetic_dataset_id: request.syntheticDatasetId,
        holdout_dataset_id: request.holdoutDatasetId,
        sample_size: request.sampleSize,
        ml_utility: request.mlUtility === null ? null : {
          algorithms: request.mlUtility.algorithms,
          test_size: request.mlUtility.testSize,
          cross_validation_folds: request.mlUtility.crossValidationFolds,
          random_state: request.mlUtility.randomState,
          target_column: request.mlUtility.targetColumn
        },
        seed: request.seed,
        created_at: meta.envelope.occurredAt
      }))
      return sql`
        INSERT INTO evaluations (id, owner_id, generator_id, kind, real_dataset_id, synthetic_dataset_id,
          holdout_dataset_id, sample_size, ml_utility, seed, status, created_at)
        SELECT id, owner_id, generator_id, kind, real_dataset_id, synthetic_dataset_id, holdout_dataset_id,
          sample_size, ml_utility, seed, 'running', created_at
        FROM jsonb_to_recordset(${requests}::jsonb) AS request(id uuid, owner_id uuid, generator_id uuid, kind text,
          real_dataset_id uuid, synthetic_dataset_id uuid, holdout_dataset_id uuid, sample_size integer,
          ml_utility jsonb, seed bigint, created_at text)
        ON CONFLICT DO NOTHING`
    }),
  "evaluation.completed": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const outcomes = jsonRows(events, ({ event: { payload: outcome }, meta }) => ({
        id: outcome.evaluationId,
        results_blob_key: outcome.resultsBlobKey,
        overall_score: outcome.overallScore,
        quality_level: outcome.qualityLevel,
        privacy_score: outcome.privacyScore,
        duration_ms: outcome.durationMs,
        completed_at: meta.envelope.occurredAt
      }))
      return sql`
        UPDATE evaluations SET status = 'completed', results_blob_key = outcome.results_blob_key,
          overall_score = outcome.overall_score, quality_level = outcome.quality_level,
          privacy_score = outcome.privacy_score, duration_ms = outcome.duration_ms, completed_at = outcome.completed_at
        FROM jsonb_to_recordset(${outcomes}::jsonb) AS outcome(id uuid, results_blob_key text, overall_score float8,
          quality_level text, privacy_score float8, duration_ms float8, completed_at text)
        WHERE evaluations.id = outcome.id AND evaluations.status = 'running'`
    }),
  "evaluation.failed": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const outcomes = jsonRows(events, ({ event: { payload }, meta }) => ({
        id: payload.evaluationId,
        error: { code: payload.reason, message: payload.message },
        completed_at: meta.envelope.occurredAt
      }))
      return sql`
        UPDATE evaluations SET status = 'failed', error = outcome.error, completed_at = outcome.completed_at
        FROM jsonb_to_recordset(${outcomes}::jsonb) AS outcome(id uuid, error jsonb, completed_at text)
        WHERE evaluations.id = outcome.id AND evaluations.status = 'running'`
    }),
  "evaluation.deleted": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql`DELETE FROM evaluations WHERE id = ANY(${events.map(({ event }) => event.payload.evaluationId)}::uuid[])`)
}

/**
 * Folds evaluation events into `evaluations`, a batch with one statement per event type and wave (events of one
 * evaluation go in successive waves). Idempotent and first-outcome-wins: the request inserts ON CONFLICT DO
 * NOTHING, an outcome only moves a `running` row, a deletion (its owner being forgotten) removes the row. The ML
 * utility settings are stored as the API shows them.
 */
export const applyEvaluationEvents = (events: ReadonlyArray<Projected>) =>
  writeInWaves(events.filter(isProjected), (event) => [event.payload.evaluationId.toLowerCase()], writers)
