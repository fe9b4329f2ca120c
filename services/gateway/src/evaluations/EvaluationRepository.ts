import { SqlClient } from "effect/sql"
import { EvaluationFailureReason, EvaluationKind } from "@synth/contracts"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { rowsOf } from "../readModelRows.ts"
import { isUuid } from "../datasets/DatasetRepository.ts"

export const EvaluationRow = Schema.Struct({
  id: Schema.String,
  ownerId: Schema.String,
  generatorId: Schema.String,
  kind: EvaluationKind,
  realDatasetId: Schema.String,
  syntheticDatasetId: Schema.String,
  holdoutDatasetId: Schema.NullOr(Schema.String),
  sampleSize: Schema.Int,
  /** As the API shows it (snake_case), or null for a quick evaluation. */
  mlUtility: Schema.NullOr(Schema.Struct({
    algorithms: Schema.Array(Schema.String),
    test_size: Schema.Number,
    cross_validation_folds: Schema.Int,
    random_state: Schema.Int,
    target_column: Schema.NullOr(Schema.String)
  })),
  seed: Schema.Number,
  status: Schema.Literals(["running", "completed", "failed"]),
  resultsBlobKey: Schema.NullOr(Schema.String),
  overallScore: Schema.NullOr(Schema.Number),
  qualityLevel: Schema.NullOr(Schema.String),
  privacyScore: Schema.NullOr(Schema.Number),
  durationMs: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.Struct({ code: EvaluationFailureReason, message: Schema.String })),
  createdAt: Schema.String,
  completedAt: Schema.NullOr(Schema.String)
})
export type EvaluationRow = typeof EvaluationRow.Type

const evaluationRows = rowsOf("evaluations", EvaluationRow)

/** Queries on the evaluation read model, scoped to the owner. SQL errors are defects (answered as internal errors). */
export class EvaluationRepository extends Context.Service<EvaluationRepository>()("@synth/gateway/EvaluationRepository", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`
      id, owner_id AS "ownerId", generator_id AS "generatorId", kind, real_dataset_id AS "realDatasetId",
      synthetic_dataset_id AS "syntheticDatasetId", holdout_dataset_id AS "holdoutDatasetId",
      sample_size AS "sampleSize", ml_utility AS "mlUtility", seed::float8 AS seed, status,
      results_blob_key AS "resultsBlobKey", overall_score AS "overallScore", quality_level AS "qualityLevel",
      privacy_score AS "privacyScore", duration_ms AS "durationMs", error, created_at AS "createdAt",
      completed_at AS "completedAt"`

    const findVisible = Effect.fn("EvaluationRepository.findVisible")(function* (id: string, ownerId: string) {
      if (!isUuid(id)) return Option.none<EvaluationRow>()
      return yield* evaluationRows.first(
        yield* sql`SELECT ${columns} FROM evaluations WHERE id = ${id} AND owner_id = ${ownerId}`
      )
    }, Effect.orDie)

    return { findVisible } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
