import { SqlClient } from "effect/sql"
import { consumedBy, type DomainEvent } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { absurd, Effect } from "effect"

const projected = consumedBy("evaluationsProjection")

/**
 * Folds evaluation events into `evaluations`. Idempotent and first-outcome-wins: the request inserts ON CONFLICT DO
 * NOTHING, an outcome only moves a `running` row, a deletion (its owner being forgotten) removes the row. The ML
 * utility settings are stored as the API shows them.
 */
export const applyEvaluationEvent = (event: DomainEvent, meta: StoredEvent) =>
  Effect.gen(function* () {
    if (!projected(event)) return
    const sql = yield* SqlClient.SqlClient
    const at = meta.envelope.occurredAt
    switch (event.type) {
      case "evaluation.requested": {
        const request = event.payload
        const mlUtility = request.mlUtility === null ? null : JSON.stringify({
          algorithms: request.mlUtility.algorithms,
          test_size: request.mlUtility.testSize,
          cross_validation_folds: request.mlUtility.crossValidationFolds,
          random_state: request.mlUtility.randomState,
          target_column: request.mlUtility.targetColumn
        })
        yield* sql`
          INSERT INTO evaluations (id, owner_id, generator_id, kind, real_dataset_id, synthetic_dataset_id,
            holdout_dataset_id, sample_size, ml_utility, seed, status, created_at)
          VALUES (${request.evaluationId}, ${request.ownerId}, ${request.generatorId}, ${request.kind},
            ${request.realDatasetId}, ${request.syntheticDatasetId}, ${request.holdoutDatasetId}, ${request.sampleSize},
            ${mlUtility}::jsonb, ${request.seed}, 'running', ${at})
          ON CONFLICT DO NOTHING`
        return
      }
      case "evaluation.completed": {
        const outcome = event.payload
        yield* sql`
          UPDATE evaluations SET status = 'completed', results_blob_key = ${outcome.resultsBlobKey},
            overall_score = ${outcome.overallScore}, quality_level = ${outcome.qualityLevel},
            privacy_score = ${outcome.privacyScore}, duration_ms = ${outcome.durationMs}, completed_at = ${at}
          WHERE id = ${outcome.evaluationId} AND status = 'running'`
        return
      }
      case "evaluation.failed": {
        const { evaluationId, message, reason } = event.payload
        yield* sql`
          UPDATE evaluations SET status = 'failed', error = ${JSON.stringify({ code: reason, message })}::jsonb,
            completed_at = ${at}
          WHERE id = ${evaluationId} AND status = 'running'`
        return
      }
      case "evaluation.deleted":
        yield* sql`DELETE FROM evaluations WHERE id = ${event.payload.evaluationId}`
        return
      default:
        return absurd<void>(event)
    }
  })
