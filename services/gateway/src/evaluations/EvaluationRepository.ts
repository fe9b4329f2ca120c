import { SqlClient } from "effect/sql"
import type { EvaluationFailureReason, EvaluationKind } from "@synth/contracts"
import { Context, Effect, Layer, Option } from "effect"
import { isUuid } from "../datasets/DatasetRepository.ts"

export interface EvaluationRow {
  readonly id: string
  readonly ownerId: string
  readonly generatorId: string
  readonly kind: EvaluationKind
  readonly realDatasetId: string
  readonly syntheticDatasetId: string
  readonly holdoutDatasetId: string | null
  readonly sampleSize: number
  /** As the API shows it (snake_case), or null for a quick evaluation. */
  readonly mlUtility: {
    readonly algorithms: ReadonlyArray<string>
    readonly test_size: number
    readonly cross_validation_folds: number
    readonly random_state: number
    readonly target_column: string | null
  } | null
  readonly seed: number
  readonly status: "running" | "completed" | "failed"
  readonly resultsBlobKey: string | null
  readonly overallScore: number | null
  readonly qualityLevel: string | null
  readonly privacyScore: number | null
  readonly durationMs: number | null
  readonly error: { readonly code: EvaluationFailureReason; readonly message: string } | null
  readonly createdAt: string
  readonly completedAt: string | null
}

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
      const rows = yield* sql<EvaluationRow>`SELECT ${columns} FROM evaluations WHERE id = ${id} AND owner_id = ${ownerId}`
      return Option.fromNullishOr(rows[0])
    }, Effect.orDie)

    return { findVisible } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
