import { Schema } from "effect"
import { DatasetId, EvaluationId, GeneratorId, UserId } from "../ids.ts"
import { defineEvent } from "./define.ts"
import { GeneratorType, ResolvedColumn } from "./generator.ts"

/**
 * The evaluation aggregate: one evaluation of a completed generator's synthetic rows against real rows, quick or a
 * full run. Events carry the request, scores and the blob key of the stored results, never a row or a value.
 *
 * Life: requested → completed | failed.
 */
export const EvaluationKind = Schema.Literals(["quick", "run"])
export type EvaluationKind = typeof EvaluationKind.Type

export const MlUtilityAlgorithm = Schema.Literals(["random_forest", "xgboost"])

/** The spec's ml_utility_config, validated by the gateway (target_column: null means "infer it"). */
export const MlUtilityConfig = Schema.Struct({
  algorithms: Schema.Array(MlUtilityAlgorithm),
  testSize: Schema.Number,
  crossValidationFolds: Schema.Int,
  randomState: Schema.Int,
  targetColumn: Schema.NullOr(Schema.String)
})
export type MlUtilityConfig = typeof MlUtilityConfig.Type

const Count = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))
const Millis = Schema.Number.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))

export const EvaluationFailureReason = Schema.Literals(["evaluation_failed", "dataset_unavailable"])
export type EvaluationFailureReason = typeof EvaluationFailureReason.Type

const topic = "synth.evaluation" as const

/**
 * What the evaluation must know of the generator's protections, from its record: the column roles and handlings
 * (null until the job resolved them, and for generators made before roles existed), the held-out rows' draw
 * (`holdoutRows(rowCount, {share, maxRows}, seed)` of @synth/protect; null when none were held out) with the count
 * the job recorded, and the rare-category threshold k.
 */
export const EvaluationGeneratorPrivacy = Schema.Struct({
  columns: Schema.NullOr(Schema.Array(ResolvedColumn)).annotate({
    description: "the generator's column roles and handlings; null for a generator without them"
  }),
  holdout: Schema.NullOr(Schema.Struct({
    share: Schema.Number.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 1 }))),
    maxRows: Count,
    seed: Count.annotate({ description: "the generator's seed" }),
    rows: Schema.optional(Count).annotate({ description: "rows the job held out: the evaluation checks that it recomputes as many" })
  })).annotate({ description: "the draw of the rows held out of training; null when none were" }),
  rareCategoryThreshold: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))).annotate({ description: "k: a value fewer than k rows hold is rare" })
})
export type EvaluationGeneratorPrivacy = typeof EvaluationGeneratorPrivacy.Type

export const EvaluationRequested = defineEvent({
  type: "evaluation.requested",
  version: 1,
  topic,
  description:
    "A user asked to evaluate a completed generator's output. `realDatasetId` is the generator's training dataset; " +
    "`holdoutDatasetId` is rows the generator never saw (a run's dataset_id when it is not the training dataset), " +
    "used by the privacy part. A quick evaluation has no ML utility part. `generatorType` (the generator's model, " +
    "so recommendations can name its settings) is optional: requests appended before it existed still read. " +
    "`generatorPrivacy` (the generator's column roles, held-out rows and rare-category threshold) is optional too: " +
    "without it the disclosure and attribute-inference checks cannot run and no rows are held out.",
  payload: Schema.Struct({
    evaluationId: EvaluationId,
    ownerId: UserId,
    generatorId: GeneratorId,
    kind: EvaluationKind,
    realDatasetId: DatasetId,
    syntheticDatasetId: DatasetId,
    holdoutDatasetId: Schema.NullOr(DatasetId),
    sampleSize: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))),
    mlUtility: Schema.NullOr(MlUtilityConfig),
    seed: Count,
    generatorType: Schema.optional(GeneratorType),
    generatorPrivacy: Schema.optional(EvaluationGeneratorPrivacy)
  })
})

export const EvaluationCompleted = defineEvent({
  type: "evaluation.completed",
  version: 1,
  topic,
  description: "The evaluation ran; its results are JSON in the blob store. The headline scores are repeated here.",
  payload: Schema.Struct({
    evaluationId: EvaluationId,
    resultsBlobKey: Schema.String,
    sha256: Schema.String,
    size: Count,
    overallScore: Schema.NullOr(Schema.Number),
    qualityLevel: Schema.NullOr(Schema.String),
    privacyScore: Schema.NullOr(Schema.Number),
    durationMs: Millis
  })
})

export const EvaluationFailed = defineEvent({
  type: "evaluation.failed",
  version: 1,
  topic,
  description:
    "The evaluation ended without results: a dataset could not be read (deleted meanwhile), or the evaluation " +
    "itself failed (the message says why, naming columns, never values).",
  payload: Schema.Struct({
    evaluationId: EvaluationId,
    reason: EvaluationFailureReason,
    message: Schema.String
  })
})

export const EvaluationDeleted = defineEvent({
  type: "evaluation.deleted",
  version: 1,
  topic,
  description:
    "The evaluation of a user being forgotten was deleted with its stored results and its read-model row. Only an " +
    "evaluation that is no longer running is deleted.",
  payload: Schema.Struct({ evaluationId: EvaluationId })
})

export const evaluationEvents = [EvaluationRequested, EvaluationCompleted, EvaluationFailed, EvaluationDeleted] as const
