import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { NotCompleted, NotFound, UnableToAnalyze, ValidationFailed, ServiceUnavailable } from "../errors.ts"
import { DatasetId, EvaluationId, GeneratorId, Timestamp } from "../ids.ts"
import { Authentication } from "../security.ts"
import { Located } from "./responses.ts"

/**
 * Evaluations of a completed generator's synthetic rows. The spec's quick evaluation result and evaluation run
 * request keep their names; every other field is an addition documented here and in docs/evaluation.md.
 */

/** Bounds and defaults the spec leaves open; the ML utility defaults are @synth/evaluation's defaultMlUtilityConfig. */
export const evaluationBounds = {
  /** Rows sampled from each table; the privacy metrics compare every synthetic row with every real one (quadratic). */
  sampleSize: { min: 1, max: 20_000, default: 10_000 },
  testSize: { default: 0.2 },
  crossValidationFolds: { min: 2, max: 10, default: 3 },
  randomState: { max: 4_294_967_295, default: 0 },
  algorithms: { allowed: ["random_forest", "xgboost"], default: ["random_forest", "xgboost"] }
} as const

export const EvaluationStatus = Schema.Literals(["running", "completed", "failed"])
export type EvaluationStatus = typeof EvaluationStatus.Type

const Share = Schema.Finite.annotate({ description: "0 to 1" })

export const StatisticalSimilarity = Schema.Struct({
  ks_test: Schema.NullOr(Schema.Finite).annotate({
    description:
      "mean KS complement (1 − two-sample Kolmogorov–Smirnov statistic, SDMetrics' KSComplement) over the numeric, " +
      "date and datetime columns; 0 to 1, higher is closer; null without such columns"
  }),
  chi_square: Schema.NullOr(Schema.Finite).annotate({
    description:
      "mean p-value of the chi-square test (SDMetrics' CSTest) of the synthetic category frequencies against the " +
      "real ones over the string and boolean columns; 0 to 1, higher is closer; null without such columns"
  }),
  wasserstein_distance: Schema.NullOr(Schema.Finite).annotate({
    description:
      "mean Wasserstein (earth mover's) distance divided by the real column's range (max − min) over the numeric, " +
      "date and datetime columns; 0 is identical, lower means closer; null without such columns"
  })
}).annotate({ identifier: "StatisticalSimilarity" })

export const EvaluationColumn = Schema.Record(Schema.String, Schema.Unknown).annotate({
  identifier: "EvaluationColumn",
  description:
    "one column's statistics: column, kind (continuous | categorical), type; continuous: ks_statistic, ks_p_value, " +
    "ks_method, ks_complement, wasserstein_distance, normalised_wasserstein, real_min, real_max; categorical: " +
    "chi_square_statistic, chi_square_p_value, tv_complement, tv_distance, categories_not_synthesised, " +
    "categories_not_in_real, largest_frequency_gap; both: real_missing_share, synthetic_missing_share"
})

/** The spec's quick evaluation result plus evaluation_id and the per-column statistics. */
export const QuickEvaluationResult = Schema.Struct({
  evaluation_id: EvaluationId,
  generator_id: GeneratorId,
  quality_level: Schema.NullOr(Schema.String).annotate({
    description: "Excellent from 0.9, Good from 0.7, Fair from 0.5, else Poor (on overall_score)"
  }),
  overall_score: Schema.NullOr(Share).annotate({
    description:
      "SDMetrics' Quality Report score: the mean of Column Shapes (KS / TV complements) and Column Pair Trends " +
      "(correlation / contingency similarity); 0 to 1, higher is better"
  }),
  statistical_similarity: StatisticalSimilarity,
  recommendations: Schema.Array(Schema.String).annotate({ description: "most severe first; each names its columns and an action" }),
  columns: Schema.Array(EvaluationColumn)
}).annotate({ identifier: "QuickEvaluationResult" })
export type QuickEvaluationResult = typeof QuickEvaluationResult.Type

/** The answer of POST /evaluations/quick/... when the evaluation outlasts EVALUATION_TIMEOUT: poll the Location. */
export const EvaluationAccepted = Schema.Struct({
  evaluation_id: EvaluationId,
  generator_id: GeneratorId,
  status: Schema.Literal("running")
}).annotate({ identifier: "EvaluationAccepted" })
export type EvaluationAccepted = typeof EvaluationAccepted.Type

/** Checked field by field in the service (every problem named in errors[]): the schema only asks for JSON types. */
export const MlUtilityConfigRequest = Schema.Struct({
  algorithms: Schema.optional(Schema.NullOr(Schema.Array(Schema.String))).annotate({
    description: "non-empty, no duplicates, each `random_forest` or `xgboost` (default both)"
  }),
  test_size: Schema.optional(Schema.NullOr(Schema.Finite)).annotate({
    description: `fraction of the real rows held out as the test set, strictly between 0 and 1 (default ${evaluationBounds.testSize.default})`
  }),
  cross_validation_folds: Schema.optional(Schema.NullOr(Schema.Finite)).annotate({
    description: `whole number from ${evaluationBounds.crossValidationFolds.min} to ${evaluationBounds.crossValidationFolds.max} ` +
      `(default ${evaluationBounds.crossValidationFolds.default})`
  }),
  random_state: Schema.optional(Schema.NullOr(Schema.Finite)).annotate({
    description: `whole number from 0 to ${evaluationBounds.randomState.max} (default ${evaluationBounds.randomState.default})`
  }),
  target_column: Schema.optional(Schema.NullOr(Schema.String)).annotate({
    description: "as the request's target_column (either place; both given must agree)"
  })
}).annotate({ identifier: "MlUtilityConfigRequest" })
export type MlUtilityConfigRequest = typeof MlUtilityConfigRequest.Type

export const EvaluationRunRequest = Schema.Struct({
  generator_id: Schema.String.annotate({ description: "one of your generators, status `completed`" }),
  dataset_id: Schema.String.annotate({
    description:
      "the generator's training dataset (no holdout), or another of your datasets with the same column names: then " +
      "it is the holdout of the privacy part (membership inference, DCR overfitting protection) and everything else " +
      "compares against the training dataset"
  }),
  evaluation_sample_size: Schema.optional(Schema.NullOr(Schema.Finite)).annotate({
    description: `rows sampled from each table, a whole number from ${evaluationBounds.sampleSize.min} to ` +
      `${evaluationBounds.sampleSize.max} (default ${evaluationBounds.sampleSize.default})`
  }),
  ml_utility_config: Schema.optional(Schema.NullOr(MlUtilityConfigRequest)).annotate({
    description: "the ML utility part's settings; absent or null: the defaults of each field"
  }),
  target_column: Schema.optional(Schema.NullOr(Schema.String)).annotate({
    description:
      "the column the ML utility models predict; absent: inferred from the training dataset (the last string or " +
      "boolean column with 2 to 20 values, else the last integer column with 2 to 10 values, else the last numeric " +
      "column, as regression)"
  })
}).annotate({ identifier: "EvaluationRunRequest" })
export type EvaluationRunRequest = typeof EvaluationRunRequest.Type

export const EvaluationRunAccepted = Schema.Struct({
  evaluation_id: EvaluationId,
  status: Schema.Literal("running")
}).annotate({ identifier: "EvaluationRunAccepted" })
export type EvaluationRunAccepted = typeof EvaluationRunAccepted.Type

export const EvaluationError = Schema.Struct({
  code: Schema.Literals(["evaluation_failed", "dataset_unavailable"]),
  message: Schema.String
}).annotate({ identifier: "EvaluationError" })

export const EvaluationMlUtilityConfig = Schema.Struct({
  algorithms: Schema.Array(Schema.String),
  test_size: Schema.Finite,
  cross_validation_folds: Schema.Int,
  random_state: Schema.Int,
  target_column: Schema.NullOr(Schema.String).annotate({ description: "null: inferred (results.ml_utility.target_column says which)" })
}).annotate({ identifier: "EvaluationMlUtilityConfig" })

export const EvaluationResults = Schema.Record(Schema.String, Schema.Unknown).annotate({
  identifier: "EvaluationResults",
  description:
    "the stored results with snake_case keys. A run: overall_score, quality_level, recommendations (strings), " +
    "recommendation_details, recommendation_groups (the findings grouped by kind, each naming its columns once, most " +
    "severe first, as the report lists them), column_treatments (each generator column's role, handling and whether it was scored, " +
    "faked, hashed or dropped; null without roles), statistical (quality, columns, ...), diagnostic, ml_utility " +
    "(null when not run; {skipped} when the data has no usable target), privacy (the distance metrics, " +
    "membership_inference with its DeLong interval, disclosure per personal column, attribute_inference per " +
    "categorical data column, verdict {safe_to_share, failing, not_run, checks}), rows, distributions, " +
    "correlations. A quick evaluation: the fields of the quick evaluation result (overall_score, quality_level, " +
    "statistical_similarity, recommendations, columns) plus quality, diagnostic and column_treatments"
})

export const Evaluation = Schema.Struct({
  evaluation_id: EvaluationId,
  generator_id: GeneratorId,
  dataset_id: DatasetId.pipe(
    Schema.annotateKey({ description: "the run's dataset_id; for a quick evaluation the training dataset" })
  ),
  kind: Schema.Literals(["quick", "run"]),
  status: EvaluationStatus,
  created_at: Timestamp,
  completed_at: Schema.NullOr(Timestamp).annotate({ description: "when it completed or failed" }),
  error: Schema.NullOr(EvaluationError).annotate({ description: "why a `failed` evaluation failed" }),
  real_dataset_id: DatasetId.pipe(Schema.annotateKey({ description: "the generator's training dataset" })),
  synthetic_dataset_id: DatasetId.pipe(Schema.annotateKey({ description: "the generator's output dataset" })),
  holdout_dataset_id: Schema.NullOr(DatasetId),
  evaluation_sample_size: Schema.Int,
  ml_utility_config: Schema.NullOr(EvaluationMlUtilityConfig),
  overall_score: Schema.NullOr(Schema.Finite),
  quality_level: Schema.NullOr(Schema.String),
  privacy_score: Schema.NullOr(Schema.Finite).annotate({ description: "a run's privacy score, 0 to 1; null for quick" }),
  safe_to_share: Schema.NullOr(Schema.Boolean).annotate({
    description:
      "a completed run: true only when every privacy check (identifier and quasi-identifier disclosure, attribute " +
      "inference, membership inference, exact copies) passed or had nothing to measure (results.privacy.verdict " +
      "says which failed or could not run); null for a quick evaluation, a run still running or failed, and results " +
      "stored before the checks existed"
  }),
  results: Schema.NullOr(EvaluationResults).annotate({ description: "set once `completed`" })
}).annotate({ identifier: "Evaluation" })
export type Evaluation = typeof Evaluation.Type

export const QuickEvaluationPath = Schema.Struct({ generator_id: Schema.String })
export const EvaluationPath = Schema.Struct({ evaluation_id: Schema.String })

export class EvaluationsGroup extends HttpApiGroup.make("evaluations")
  .add(
    HttpApiEndpoint.post("quick", "/evaluations/quick/:generator_id", {
      params: QuickEvaluationPath,
      success: [QuickEvaluationResult, Located(EvaluationAccepted.pipe(HttpApiSchema.status(202)))],
      error: [NotFound, NotCompleted, UnableToAnalyze, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Quick statistical evaluation of a completed generator's synthetic data")
      .annotate(
        OpenApi.Description,
        `No body. Compares up to ${evaluationBounds.sampleSize.default.toLocaleString("en")} sampled rows of the generator's output
dataset with as many of its training dataset (Quality Report score, KS, chi-square, Wasserstein, validity checks,
recommendations) and answers 200 with the result. When it outlasts EVALUATION_TIMEOUT (25 s by default): 202
{evaluation_id, generator_id, status: "running"} with \`Location: /evaluations/{evaluation_id}\` to poll. 404
not_found for an unknown generator or another user's; 409 not_completed unless the generator is \`completed\`; 422
unable_to_analyze when the data cannot be evaluated (the detail says why); 404 when a dataset was deleted meanwhile.`
      )
  )
  .add(
    HttpApiEndpoint.post("run", "/evaluations/run", {
      payload: EvaluationRunRequest,
      success: Located(EvaluationRunAccepted.pipe(HttpApiSchema.status(202))),
      error: [NotFound, NotCompleted, ValidationFailed, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "A full evaluation run: statistical, diagnostic, ML utility and privacy (asynchronous)")
      .annotate(
        OpenApi.Description,
        `Answers 202 {evaluation_id, status: "running"} with \`Location: /evaluations/{evaluation_id}\`; poll it until
\`status\` is \`completed\` (results set) or \`failed\` (error set). evaluation_sample_size ${evaluationBounds.sampleSize.min}..${evaluationBounds.sampleSize.max}
(default ${evaluationBounds.sampleSize.default}): the privacy metrics compare every sampled synthetic row with every real
one. ml_utility_config: algorithms from random_forest, xgboost (non-empty, no duplicates, default both),
test_size in (0, 1) (default ${evaluationBounds.testSize.default}), cross_validation_folds ${evaluationBounds.crossValidationFolds.min}..${evaluationBounds.crossValidationFolds.max} (default
${evaluationBounds.crossValidationFolds.default}), random_state 0..${evaluationBounds.randomState.max} (default ${evaluationBounds.randomState.default}); target_column must be a column of the
training dataset (inferred when absent). 422 validation_failed names each bad field (dataset_id when its columns
differ from the training dataset's); 404 not_found for a generator or dataset that is not yours; 409 not_completed
unless the generator is \`completed\`.`
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/evaluations/:evaluation_id", {
      params: EvaluationPath,
      success: Evaluation,
      error: [NotFound, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "One evaluation: status, request, scores and (once completed) results")
      .annotate(
        OpenApi.Description,
        `status: \`running\` until \`completed\` (results: the stored results with snake_case keys) or \`failed\` (error
says why: evaluation_failed, dataset_unavailable). 404 for an unknown id or another user's evaluation.`
      )
  )
  .add(
    HttpApiEndpoint.get("report", "/evaluations/:evaluation_id/report", {
      params: EvaluationPath,
      success: HttpApiSchema.WithHeaders(Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html; charset=utf-8" })), {
        "content-security-policy": Schema.String,
        "x-content-type-options": Schema.Literal("nosniff"),
        "content-disposition": Schema.String
      }),
      error: [NotFound, NotCompleted, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "A completed evaluation run as a self-contained HTML page")
      .annotate(
        OpenApi.Description,
        `One HTML page (text/html; charset=utf-8) with inline CSS and SVG charts, no scripts and no external requests, to
open in a browser or save and open offline: the overall score and each part's headline, the real and synthetic
distributions per column, the correlation matrices, then the quality, diagnostic, ML utility and privacy sections.
Served with \`Content-Security-Policy\` (the page's own: nothing loads from elsewhere), \`X-Content-Type-Options: nosniff\`
and \`Content-Disposition: inline; filename="evaluation-<id>.html"\`. 404 as for GET /evaluations/{evaluation_id}; 409
not_completed for a quick evaluation (the report is for evaluation runs: POST /evaluations/run), while the run is
\`running\`, when it \`failed\`, and for results stored before the report existed (run the evaluation again).`
      )
  )
  .middleware(Authentication) {}
