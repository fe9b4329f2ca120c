import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AlreadyFinished, InvalidEpsilon, NotCompleted, NotFound, PrivacyBudgetExceeded, ValidationFailed, ServiceUnavailable } from "../errors.ts"
import { ColumnHandling, ColumnRole, GenerationFailureReason } from "../events/generator.ts"
import { DatasetId, GeneratorId, Timestamp } from "../ids.ts"
import { Authentication } from "../security.ts"
import { datasetPaging, ListParams } from "./datasets.ts"
import { Located, Page } from "./responses.ts"

/**
 * Generation jobs. The spec's generation request, generation response and generator record keep their names; every
 * other field is an addition documented here and in docs/generation.md.
 */

/** Bounds and defaults of the generation request (the spec leaves them open). num_rows' maximum is MAX_GENERATED_ROWS. */
export const generationBounds = {
  epochs: { min: 1, max: 10_000, default: 300 },
  batchSize: { min: 10, max: 10_000, default: 500 },
  /** CTGAN's PacGAN packs this many rows per discriminator input: its batches are multiples of it. */
  pac: 10,
  targetEpsilon: { max: 1_000 },
  seed: { max: 4_294_967_295 }
} as const

const Count = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))

export const GeneratorStatus = Schema.Literals(["running", "completed", "failed", "cancelled"])
export type GeneratorStatus = typeof GeneratorStatus.Type

export const GeneratorPhase = Schema.Literals(["queued", "fitting", "sampling"])

/** Bounds and defaults of the output protections (docs/privacy.md). */
export const protectionBounds = {
  rareCategoryThreshold: { min: 1, max: 1_000, default: 5 },
  holdoutShare: { min: 0.05, max: 0.5, default: 0.1 },
  holdoutMaxRows: 10_000
} as const

export const ColumnOverride = Schema.Struct({
  handling: Schema.String.annotate({ description: "`fake`, `drop`, `keep` or `hash`" })
}).annotate({ identifier: "ColumnOverride" })

export const PrivacyRequest = Schema.Struct({
  rare_category_threshold: Schema.optional(Schema.NullOr(Schema.Finite)).annotate({
    description: `k: categories held by fewer than k real rows never appear in the output, and no number, date or ` +
      `datetime beyond the range that k rows reach is published (${protectionBounds.rareCategoryThreshold.min} to ` +
      `${protectionBounds.rareCategoryThreshold.max}, default ${protectionBounds.rareCategoryThreshold.default})`
  }),
  value_protection: Schema.optional(Schema.NullOr(Schema.Boolean)).annotate({
    description: "no real extreme in the output (default true)"
  }),
  rare_category_protection: Schema.optional(Schema.NullOr(Schema.Boolean)).annotate({
    description: "no category of fewer than k real rows in the output (default true)"
  }),
  similarity_filter: Schema.optional(Schema.NullOr(Schema.Boolean)).annotate({
    description: "output rows equal to a real row on every learned column are drawn again (default true)"
  }),
  holdout_share: Schema.optional(Schema.NullOr(Schema.Finite)).annotate({
    description: `share of the rows held out of training for the membership-inference attack ` +
      `(${protectionBounds.holdoutShare.min} to ${protectionBounds.holdoutShare.max}, default ` +
      `${protectionBounds.holdoutShare.default}, at most ${protectionBounds.holdoutMaxRows} rows)`
  })
}).annotate({ identifier: "PrivacyRequest" })

/**
 * A constraint every output row obeys (issue 26; docs/generation.md, "Constraints and conditional sampling"). Loose
 * on purpose: the service checks each one by field (an unknown `type` is `constraints[i].type`), so the schema only
 * asks for a JSON object; the description documents the five shapes.
 */
export const ConstraintRequest = Schema.Record(Schema.String, Schema.Unknown).annotate({
  identifier: "ConstraintRequest",
  description: "one of `{\"type\":\"inequality\",\"low\":COLUMN,\"high\":COLUMN,\"strict\":false}` (low <= high, " +
    "`<` when strict), `{\"type\":\"fixed_combinations\",\"columns\":[COLUMN, ...]}` (only combinations that occur " +
    "in the data), `{\"type\":\"range\",\"column\":COLUMN,\"min\":0,\"max\":0.5,\"strict\":false}` (either bound " +
    "may be null; ISO 8601 text for dates), `{\"type\":\"unique\",\"columns\":[COLUMN, ...]}` (no two rows share " +
    "their values), `{\"type\":\"positive\",\"column\":COLUMN,\"strict\":false}` (>= 0, > 0 when strict)"
})

/** Conditions a sample meets, per column: one value, or `{"min": .., "max": ..}`. Checked by field in the service. */
export const ConditionsRequest = Schema.Record(Schema.String, Schema.Unknown).annotate({
  identifier: "ConditionsRequest",
  description: "column name to the value every row has (`\"churned\": \"Yes\"`, a number, a boolean, an ISO 8601 " +
    "date) or to a range (`\"age\": {\"min\": 30, \"max\": 40}`, either bound may be left out). The output has " +
    "exactly num_rows rows, each meeting every condition; a value the training data never holds is a 422, a " +
    "combination too rare to draw within the budget fails the job with reason conditions_unmet."
})

const rulesFields = {
  constraints: Schema.optional(Schema.NullOr(Schema.Array(ConstraintRequest))).annotate({
    description: "rules every output row obeys, and every later sample of this generator (see ConstraintRequest)"
  }),
  conditions: Schema.optional(Schema.NullOr(ConditionsRequest))
}

/**
 * The body is checked field by field in the service (every problem named in `errors[]`), so the schema only asks
 * for a JSON object whose known members have JSON types.
 */
export const GenerationRequest = Schema.Struct({
  generator_type: Schema.String.annotate({ description: "`ctgan`, `dp-ctgan`, `tvae` or `gaussian_copula`" }),
  num_rows: Schema.Finite.annotate({ description: "synthetic rows to produce: 1 to MAX_GENERATED_ROWS (10,000,000)" }),
  epochs: Schema.optional(Schema.NullOr(Schema.Finite)).annotate({
    description: `training epochs, ${generationBounds.epochs.min} to ${generationBounds.epochs.max} (default ` +
      `${generationBounds.epochs.default}); not used with gaussian_copula (ignored, and said so in message)`
  }),
  batch_size: Schema.optional(Schema.NullOr(Schema.Finite)).annotate({
    description: `rows per training step, ${generationBounds.batchSize.min} to ${generationBounds.batchSize.max} ` +
      `(default ${generationBounds.batchSize.default}); a multiple of ${generationBounds.pac} for ctgan and dp-ctgan ` +
      "(PacGAN); not used with gaussian_copula"
  }),
  target_epsilon: Schema.optional(Schema.NullOr(Schema.Finite)).annotate({
    description: `dp-ctgan only, required there: the privacy budget ε, > 0 and at most ${generationBounds.targetEpsilon.max}`
  }),
  seed: Schema.optional(Schema.NullOr(Schema.Finite)).annotate({
    description: `0 to ${generationBounds.seed.max}; fit and sample are reproducible for a seed on the same machine. ` +
      "Chosen at random (and shown in the generator record) when absent."
  }),
  columns: Schema.optional(Schema.NullOr(Schema.Record(Schema.String, ColumnOverride))).annotate({
    description: "per-column handling, overriding the role's default (docs/privacy.md): `fake` (fresh values of the " +
      "same kind, none real; the default for identifiers and direct identifiers), `drop` (left out), `keep` (learned; " +
      "on a personal column it publishes real values, and the response warns), `hash` (keyed hashes, learned). Keys " +
      "are column names of the dataset."
  }),
  privacy: Schema.optional(Schema.NullOr(PrivacyRequest)),
  ...rulesFields
}).annotate({ identifier: "GenerationRequest" })
export type GenerationRequest = typeof GenerationRequest.Type

export const GenerationResponse = Schema.Struct({
  message: Schema.String,
  generator_id: GeneratorId,
  estimated_time: Schema.String.annotate({ description: "free text, e.g. `about 40 seconds`" }),
  estimated_seconds: Schema.Finite.annotate({ description: "the same estimate in seconds (from the speed model)" }),
  status: Schema.Literal("running"),
  warnings: Schema.Array(Schema.String).annotate({
    description: "what the request gives away: a personal column kept (`keep`) publishes real values"
  })
}).annotate({ identifier: "GenerationResponse" })
export type GenerationResponse = typeof GenerationResponse.Type

export const GeneratorParameters = Schema.Struct({
  num_rows: Schema.Int,
  epochs: Schema.NullOr(Schema.Int),
  batch_size: Schema.NullOr(Schema.Int),
  target_epsilon: Schema.NullOr(Schema.Finite)
}).annotate({ identifier: "GeneratorParameters" })

export const LossRecord = Schema.Struct({
  epoch: Schema.Int,
  losses: Schema.Record(Schema.String, Schema.Finite)
}).annotate({ identifier: "LossRecord" })

export const GeneratorTimings = Schema.Struct({
  queued_ms: Schema.NullOr(Schema.Finite).annotate({ description: "from acceptance to the worker's start" }),
  fit_ms: Schema.NullOr(Schema.Finite),
  sample_ms: Schema.NullOr(Schema.Finite),
  total_ms: Schema.NullOr(Schema.Finite).annotate({ description: "the worker's time, loading and storing included" })
}).annotate({ identifier: "GeneratorTimings" })

export const GeneratorError = Schema.Struct({
  code: Schema.Literal("training_failed"),
  reason: GenerationFailureReason.annotate({
    description: "invalid_rules: the data breaks a constraint or lacks a condition's value (checked on every row); " +
      "constraints_unmet / conditions_unmet: too few drawn rows obeyed them within the budget (the message says which)"
  }),
  message: Schema.String
}).annotate({ identifier: "GeneratorError" })

export const GeneratorSample = Schema.Struct({
  output_dataset_id: DatasetId,
  num_rows: Schema.Int,
  seed: Schema.Int,
  status: Schema.Literals(["running", "completed", "failed"]),
  created_at: Timestamp,
  error: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(GenerationFailureReason).annotate({
    description: "why a failed sample failed (conditions_unmet: too few drawn rows met its conditions within the " +
      "budget; training_failed: the stored model could not be read or sampled); null otherwise"
  }),
  conditions: Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)).annotate({
    description: "the conditions this sample's rows meet, as requested; null when none"
  })
}).annotate({ identifier: "GeneratorSample" })

export const GeneratorModel = Schema.Struct({
  format: Schema.String,
  version: Schema.Int,
  size: Count
}).annotate({ identifier: "GeneratorModel" })

export const GeneratorProtections = Schema.Struct({
  rare_category_threshold: Schema.Int,
  value_protection: Schema.Boolean,
  rare_category_protection: Schema.Boolean,
  similarity_filter: Schema.Boolean,
  holdout_share: Schema.Finite
}).annotate({ identifier: "GeneratorProtections" })

export const GeneratorColumn = Schema.Struct({
  name: Schema.String,
  role: ColumnRole,
  handling: ColumnHandling,
  pii_type: Schema.NullOr(Schema.String).annotate({ description: "the scan's type of a personal column" })
}).annotate({ identifier: "GeneratorColumn" })

export const GeneratorPrivacy = Schema.Struct({
  protections: Schema.NullOr(GeneratorProtections).annotate({
    description: "the output protections this generator applies; null for generators trained before they existed"
  }),
  roles_from: Schema.NullOr(Schema.Literals(["basic", "enhanced", "generation"])).annotate({
    description: "the scan the column roles come from: the dataset's stored basic or enhanced scan, or a basic scan " +
      "the job ran because none was stored; null until the job resolved them"
  }),
  training_rows: Schema.NullOr(Count),
  holdout_rows: Schema.NullOr(Count).annotate({ description: "real rows held out of training for the membership-inference attack" }),
  filtered_rows: Schema.NullOr(Count).annotate({
    description: "output rows equal to a real training row on every learned column, drawn again (once completed)"
  }),
  copies_kept: Schema.NullOr(Count).annotate({
    description: "output rows still equal to a real row after every redraw: the learned columns allow so few " +
      "combinations that each is shared by many rows"
  }),
  redrawn_values: Schema.NullOr(Count).annotate({ description: "training values in a tail of their column, redrawn inside its protected range" }),
  rare_category_rows: Schema.NullOr(Count).annotate({ description: "training rows whose category was held by fewer than k rows" }),
  target_epsilon: Schema.NullOr(Schema.Finite).annotate({ description: "dp-ctgan: the privacy budget ε" }),
  epsilon_spent: Schema.NullOr(Schema.Finite).annotate({
    description: "dp-ctgan, once completed: ε spent in all, preprocessing and training composed; never above target_epsilon"
  }),
  delta: Schema.NullOr(Schema.Finite).annotate({ description: "dp-ctgan: δ of the guarantee" }),
  noise_multiplier: Schema.NullOr(Schema.Finite),
  steps: Schema.NullOr(Count).annotate({ description: "dp-ctgan: discriminator steps taken" }),
  stopped_early: Schema.NullOr(Schema.Boolean).annotate({
    description: "dp-ctgan: true when training stopped before its epochs to stay within the budget"
  }),
  budget: Schema.NullOr(Schema.Struct({ preprocessing: Schema.Finite, training: Schema.Finite })).annotate({
    description: "dp-ctgan: ε spent on what the preprocessing released (bounds, categories, counts) and on training"
  })
}).annotate({ identifier: "GeneratorPrivacy" })

export const Generator = Schema.Struct({
  id: GeneratorId,
  status: GeneratorStatus,
  progress: Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 100 }))),
  created_at: Timestamp,
  updated_at: Timestamp,
  output_dataset_id: Schema.NullOr(DatasetId).annotate({ description: "set once status is `completed`" }),
  phase: Schema.NullOr(GeneratorPhase).annotate({ description: "while running: queued, fitting or sampling" }),
  generator_type: Schema.String,
  dataset_id: DatasetId,
  parameters: GeneratorParameters,
  seed: Schema.Int,
  attempts: Count.annotate({ description: "worker attempts so far (a lost worker's job is started once more)" }),
  estimated_time: Schema.String,
  loss_history: Schema.Array(LossRecord),
  timings: GeneratorTimings,
  model: Schema.NullOr(GeneratorModel),
  columns: Schema.NullOr(Schema.Array(GeneratorColumn)).annotate({
    description: "every column's role and handling, resolved by the job before training (null until then)"
  }),
  warnings: Schema.Array(Schema.String).annotate({ description: "what this generator's settings give away" }),
  privacy: Schema.NullOr(GeneratorPrivacy).annotate({
    description: "the output protections and what they did; dp-ctgan's privacy spent (null for generators trained " +
      "before the protections existed, unless dp-ctgan)"
  }),
  error: Schema.NullOr(GeneratorError).annotate({ description: "why a `failed` job failed" }),
  samples: Schema.Array(GeneratorSample).annotate({ description: "rows drawn later with POST .../sample" }),
  constraints: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)).annotate({
    description: "the constraints this generator was trained with, as requested; every output and sample obeys them"
  }),
  conditions: Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)).annotate({
    description: "the conditions the generation's own output meets, as requested; null when none"
  })
}).annotate({ identifier: "Generator" })
export type Generator = typeof Generator.Type

/** The answer of a cancellation whose stop is still on its way: the record, still `running`. */
export const StoppingGenerator = Schema.Struct({ ...Generator.fields, status: Schema.Literal("running") }).annotate({
  identifier: "StoppingGenerator",
  description: "A generator being stopped: still running until its worker has let go (poll GET /generators/{generator_id})"
})

/**
 * POST /generators/{id}/cancel answers the record: 202 while it is still running, 200 once it stopped. The first
 * member that takes the record encodes it, so the narrower 202 comes first.
 */
export const CancelAnswer = [StoppingGenerator.pipe(HttpApiSchema.status(202)), Generator] as const

export const SampleRequest = Schema.Struct({
  num_rows: Schema.Finite,
  seed: Schema.optional(Schema.NullOr(Schema.Finite)),
  conditions: rulesFields.conditions
}).annotate({ identifier: "SampleRequest" })
export type SampleRequest = typeof SampleRequest.Type

export const SampleAccepted = Schema.Struct({
  message: Schema.String,
  generator_id: GeneratorId,
  output_dataset_id: DatasetId,
  seed: Schema.Int,
  status: Schema.Literal("running"),
  estimated_time: Schema.String
}).annotate({ identifier: "SampleAccepted" })
export type SampleAccepted = typeof SampleAccepted.Type

/** The spec's differential-privacy configuration (validator input). Checked field by field in the service. */
export const DpConfigRequest = Schema.Struct({
  dataset_id: Schema.String,
  target_epsilon: Schema.optional(Schema.NullOr(Schema.Finite)),
  epochs: Schema.optional(Schema.NullOr(Schema.Finite)).annotate({
    description: `default ${generationBounds.epochs.default}, as a generation request`
  }),
  batch_size: Schema.optional(Schema.NullOr(Schema.Finite)).annotate({
    description: `default ${generationBounds.batchSize.default}; a multiple of ${generationBounds.pac}, at most the dataset's rows`
  })
}).annotate({ identifier: "DpConfigRequest" })
export type DpConfigRequest = typeof DpConfigRequest.Type

/** What a dp-ctgan training with this configuration would spend and how it would fare (docs/generation.md). */
export const DpConfigValidation = Schema.Struct({
  valid: Schema.Boolean,
  reason: Schema.NullOr(Schema.String).annotate({ description: "why not valid (privacy budget exceeded: ...); null when valid" }),
  dataset_id: DatasetId,
  rows: Schema.Int.annotate({ description: "the rows training would see (the dataset's, less those held out)" }),
  target_epsilon: Schema.Finite,
  epochs: Schema.Int,
  batch_size: Schema.Int,
  epsilon: Schema.NullOr(Schema.Finite).annotate({
    description: "ε the model would spend in all, budget.preprocessing + budget.training (≤ target_epsilon); null when not valid"
  }),
  budget: Schema.NullOr(
    Schema.Struct({
      preprocessing: Schema.Finite.annotate({ description: "ε of the row count, bounds, categories and missing values: a fixed share of the target" }),
      training: Schema.Finite.annotate({ description: "ε DP-SGD would spend (at most the rest of the target)" })
    })
  ).annotate({ description: "epsilon's two parts; null when not valid" }),
  delta: Schema.Finite.annotate({ description: "the total δ, min(1e-5, 1/(10·rows)): below 1/rows; half of it DP-SGD's" }),
  noise_multiplier: Schema.NullOr(Schema.Finite).annotate({ description: "σ that spends the training's share (Opacus's search); null when none does" }),
  noise_per_row: Schema.NullOr(Schema.Finite).annotate({ description: "σ / batch_size: the noise on each averaged gradient" }),
  sample_rate: Schema.Finite.annotate({ description: "batch_size / rows" }),
  steps: Schema.Int.annotate({ description: "discriminator steps: epochs / sample_rate" }),
  accountant: Schema.Literal("rdp"),
  privacy_level: Schema.Literals(["high_privacy", "balanced", "high_utility"]),
  expected_utility: Schema.String.annotate({ description: "the spec's band for the target: 70-80%, 85-90% or 90-95%" }),
  warnings: Schema.Array(Schema.String),
  recommendations: Schema.Array(Schema.String),
  recommended_epochs: Schema.NullOr(Schema.Int),
  recommended_batch_size: Schema.NullOr(Schema.Int)
}).annotate({ identifier: "DpConfigValidation" })
export type DpConfigValidation = typeof DpConfigValidation.Type

export const GeneratorPath = Schema.Struct({ generator_id: Schema.String })
export const GenerateFromPath = Schema.Struct({ dataset_id: Schema.String })

const generateDescription = `Starts a generation job on one of your datasets and answers at once: 202 with
\`Location: /generators/{generator_id}\`; poll it until \`status\` is \`completed\` (then download
output_dataset_id through GET /datasets/{id}/download), \`failed\` or \`cancelled\`. The job is \`running\` from
acceptance; \`phase\` says queued, fitting or sampling. estimated_time comes from a speed model measured on this
service's machines (rows, encoded width, epochs).

Validation (422 validation_failed, each problem in errors[]): generator_type one of ctgan, dp-ctgan, tvae,
gaussian_copula; num_rows a whole number from 1 to MAX_GENERATED_ROWS (10,000,000 by default); epochs
${generationBounds.epochs.min}..${generationBounds.epochs.max} (default ${generationBounds.epochs.default}); batch_size
${generationBounds.batchSize.min}..${generationBounds.batchSize.max} (default ${generationBounds.batchSize.default}), a multiple
of ${generationBounds.pac} for ctgan and dp-ctgan; seed 0..${generationBounds.seed.max}. target_epsilon is required for
dp-ctgan and must be > 0 and at most ${generationBounds.targetEpsilon.max} (422 invalid_epsilon). A dp-ctgan request
that the accountant finds cannot meet target_epsilon with useful noise on this dataset (the test of POST
/generators/dp/validate-config, \`valid: false\`) answers 422 privacy_budget_exceeded with recommended_epochs /
recommended_batch_size; batch_size above the dataset's rows answers 422 validation_failed for dp-ctgan. 404 as for
GET /datasets/{dataset_id}; 409 not_completed while the dataset is still processing. A completed dp-ctgan generator
reports the ε it spent in \`privacy\`.`

export class GeneratorsGroup extends HttpApiGroup.make("generators")
  .add(
    HttpApiEndpoint.post("generate", "/generators/dataset/:dataset_id/generate", {
      params: GenerateFromPath,
      payload: GenerationRequest,
      success: Located(GenerationResponse.pipe(HttpApiSchema.status(202))),
      error: [NotFound, NotCompleted, ValidationFailed, InvalidEpsilon, PrivacyBudgetExceeded, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Train a generator on a dataset and produce synthetic rows (asynchronous)")
      .annotate(OpenApi.Description, generateDescription)
  )
  .add(
    HttpApiEndpoint.get("list", "/generators/", {
      query: ListParams,
      success: Page(Generator),
      error: [ValidationFailed, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Your generators, newest first")
      .annotate(
        OpenApi.Description,
        `Only the caller's generators, newest first, as a JSON array; paged as GET /datasets/ (\`?limit=\`, default
${datasetPaging.defaultLimit}, at most ${datasetPaging.maxLimit}; \`Link: <...>; rel="next"\` while more follow).`
      )
  )
  .add(
    HttpApiEndpoint.get("get", "/generators/:generator_id", {
      params: GeneratorPath,
      success: Generator,
      error: [NotFound, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "One generator: status, progress, parameters, losses, timings, outcome")
      .annotate(
        OpenApi.Description,
        `status: \`running\` (phase queued, fitting or sampling) until \`completed\` (output_dataset_id set), \`failed\`
(error says why: training_failed, dataset_unavailable, or worker_lost when its worker was lost twice) or
\`cancelled\`. progress is 0..100. 404 for an unknown id or another user's generator.`
      )
  )
  .add(
    HttpApiEndpoint.post("cancel", "/generators/:generator_id/cancel", {
      params: GeneratorPath,
      success: CancelAnswer,
      error: [NotFound, AlreadyFinished, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Stop a running generator")
      .annotate(
        OpenApi.Description,
        `Stops the job (its worker thread is terminated, within about a second) and marks it \`cancelled\`; nothing of
it is kept. 200 with the record once cancelled; 202 with the record while the stop is still on its way; 409
already_finished when it is no longer running (completed, failed or cancelled).`
      )
  )
  .add(
    HttpApiEndpoint.post("sample", "/generators/:generator_id/sample", {
      params: GeneratorPath,
      payload: SampleRequest,
      success: Located(SampleAccepted.pipe(HttpApiSchema.status(202))),
      error: [NotFound, NotCompleted, ValidationFailed, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Draw more rows from a completed generator's stored model, as a new dataset")
      .annotate(
        OpenApi.Description,
        `No retraining: the stored model samples num_rows (1 to MAX_GENERATED_ROWS) rows with the seed (random when
absent) into a new dataset, output_dataset_id in the answer; 202 with \`Location: /datasets/{output_dataset_id}\`. Until
it is stored, GET and download of that id answer 409 not_completed; the generator's samples[] shows its status. 409
not_completed when the generator is not completed.`
      )
  )
  .add(
    HttpApiEndpoint.post("validateDpConfig", "/generators/dp/validate-config", {
      payload: DpConfigRequest,
      success: DpConfigValidation,
      error: [NotFound, NotCompleted, ValidationFailed, InvalidEpsilon, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "What a dp-ctgan configuration would spend in privacy on a dataset, before training")
      .annotate(
        OpenApi.Description,
        `Accounts the configuration with the RDP accountant (Opacus's): δ = min(1e-5, 1/(10·rows)), sample_rate =
batch_size/rows, steps = epochs/sample_rate, and the noise multiplier that spends target_epsilon. 200 with
\`valid: false\` and \`reason\` "privacy budget exceeded: ..." when the noise each averaged gradient would carry
(noise_per_row = σ/batch_size) is above 0.05; warnings above 0.01, with recommendations (reduce epochs to N / increase
batch_size to M) computed to bring it back. privacy_level and expected_utility follow the spec's guidance (ε ≈ 1 high
privacy 70-80%, ≈ 5 balanced 85-90%, ≈ 10 high utility 90-95%; split at 3 and 7.5). 422 invalid_epsilon for a
missing, non-positive or too large target_epsilon; 422 validation_failed for epochs or batch_size out of bounds (as a
generation request; batch_size also at most the rows); 404 / 409 as for generation.`
      )
  )
  .middleware(Authentication) {}
