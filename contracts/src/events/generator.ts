import { Schema } from "effect"
import { DatasetId, GeneratorId, UserId } from "../ids.ts"
import { defineEvent } from "./define.ts"

/**
 * The generator aggregate: one generation job, from the request to its outcome, and the samples drawn later from
 * its stored model. Events carry parameters, counts, timings, losses and blob keys, never a row or a value.
 *
 * Life of a job: requested → started (attempt 1) → progressed… → completed | failed | cancelled. A job whose worker
 * stops sending heartbeats (a crashed process) is requeued once with the next attempt number, then failed.
 */
export const GeneratorType = Schema.Literals(["ctgan", "dp-ctgan", "tvae", "gaussian_copula"])
export type GeneratorType = typeof GeneratorType.Type

export const GenerationPhase = Schema.Literals(["fitting", "sampling"])
export type GenerationPhase = typeof GenerationPhase.Type

const Count = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))
const Attempt = Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0)))
const Millis = Schema.Number.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))

export const GenerationParameters = Schema.Struct({
  numRows: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))),
  /** Null where the model takes none (gaussian_copula). */
  epochs: Schema.NullOr(Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0)))),
  batchSize: Schema.NullOr(Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0)))),
  targetEpsilon: Schema.NullOr(Schema.Number.pipe(Schema.check(Schema.isGreaterThan(0))))
})
export type GenerationParameters = typeof GenerationParameters.Type

/** One epoch's losses (names as the model reports them, e.g. generator and discriminator for CTGAN). */
export const EpochLoss = Schema.Struct({
  epoch: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))),
  losses: Schema.Record(Schema.String, Schema.Number)
})
export type EpochLoss = typeof EpochLoss.Type

export const GenerationTimings = Schema.Struct({
  fitMs: Millis,
  sampleMs: Millis,
  totalMs: Millis
})

export const ModelArtifact = Schema.Struct({
  blobKey: Schema.String,
  sha256: Schema.String,
  size: Count,
  format: Schema.String,
  formatVersion: Schema.Int
})

/** What a dp-ctgan training spent, by the RDP accountant (ε for the steps actually taken, at δ). */
export const PrivacySpent = Schema.Struct({
  targetEpsilon: Schema.Number,
  epsilonSpent: Schema.Number,
  delta: Schema.Number,
  noiseMultiplier: Schema.Number,
  steps: Count,
  stoppedEarly: Schema.Boolean,
  /** How ε was split between what the preprocessing released and the training (optional: older events lack it). */
  budget: Schema.optional(Schema.Struct({ preprocessing: Schema.Number, training: Schema.Number }))
})

/** What a generation does with a column (libs/protect): faked, dropped, learned as it is, or learned as keyed hashes. */
export const ColumnHandling = Schema.Literals(["fake", "drop", "keep", "hash"])
export type ColumnHandling = typeof ColumnHandling.Type

/** A column's role, decided before training from the dataset's latest scan and the request. */
export const ColumnRole = Schema.Literals(["identifier", "direct_identifier", "quasi_identifier", "data"])
export type ColumnRole = typeof ColumnRole.Type

/** The request's per-column overrides: column name → handling. Names only, never a value. */
export const ColumnOverrides = Schema.Record(Schema.String, Schema.Struct({ handling: ColumnHandling }))

/**
 * The output protections of a generation (docs/privacy.md): values beyond the range that at least k rows reach are
 * never published, categories of fewer than k rows never appear, rows equal to a real row are drawn again, and a
 * share of the rows is held out of training for the membership-inference attack.
 */
export const ProtectionSettings = Schema.Struct({
  rareCategoryThreshold: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))),
  valueProtection: Schema.Boolean,
  rareCategoryProtection: Schema.Boolean,
  similarityFilter: Schema.Boolean,
  holdoutShare: Schema.Number.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 0.5 })))
})
export type ProtectionSettings = typeof ProtectionSettings.Type

/** How a column was resolved: names, roles, handlings and the scan's type, never a value. */
export const ResolvedColumn = Schema.Struct({
  name: Schema.String,
  role: ColumnRole,
  handling: ColumnHandling,
  piiType: Schema.NullOr(Schema.String)
})
export type ResolvedColumn = typeof ResolvedColumn.Type

/** What the protections did to one output (counts only). */
export const ProtectionCounts = Schema.Struct({
  /** Output rows equal to a real training row on every learned column, drawn again. */
  filteredRows: Count,
  /** Training values in a tail of their column (beyond the range k rows reach), redrawn inside it. */
  redrawnValues: Count,
  /** Training rows whose category was held by fewer than k rows, given a frequent one. */
  rareCategoryRows: Count,
  /** Output rows still equal to a real row after every redraw (columns that allow few combinations). */
  copiesKept: Count
})
export type ProtectionCounts = typeof ProtectionCounts.Type

/** The rules' reasons (issue 26) were added later; every earlier event still reads. */
export const GenerationFailureReason = Schema.Literals([
  "training_failed",
  "dataset_unavailable",
  "worker_lost",
  "invalid_rules",
  "constraints_unmet",
  "conditions_unmet"
])
export type GenerationFailureReason = typeof GenerationFailureReason.Type

/**
 * The request's constraints and conditions as the user wrote them (validated by the gateway, parsed again by the
 * worker with the same validateRules): JSON, never rows. Optional, so events written before issue 26 still read.
 */
export const RequestedConstraints = Schema.Array(Schema.Record(Schema.String, Schema.Unknown))
export const RequestedConditions = Schema.Record(Schema.String, Schema.Unknown)

const topic = "synth.generator" as const

export const GeneratorRequested = defineEvent({
  type: "generator.requested",
  version: 1,
  topic,
  description:
    "A user asked for a generation job on one of their datasets; the gateway validated it and chose the seed and " +
    "the output dataset's id. The job is `running` (queued) from here.",
  payload: Schema.Struct({
    generatorId: GeneratorId,
    ownerId: UserId,
    datasetId: DatasetId,
    generatorType: GeneratorType,
    parameters: GenerationParameters,
    seed: Count,
    outputDatasetId: DatasetId,
    outputFilename: Schema.String,
    estimatedSeconds: Millis,
    /** Optional, so generator.requested v1 events written before they existed still read (defaults then apply). */
    columns: Schema.optional(ColumnOverrides),
    protection: Schema.optional(ProtectionSettings),
    constraints: Schema.optional(RequestedConstraints),
    conditions: Schema.optional(RequestedConditions)
  })
})

export const GeneratorStarted = defineEvent({
  type: "generator.started",
  version: 1,
  topic,
  description: "A generation worker took the job (attempt n) and started fitting.",
  payload: Schema.Struct({
    generatorId: GeneratorId,
    attempt: Attempt,
    worker: Schema.String
  })
})

export const GeneratorPrepared = defineEvent({
  type: "generator.prepared",
  version: 1,
  topic,
  description:
    "The job resolved every column's role and handling (from the dataset's latest scan, or a basic scan it ran " +
    "itself, and the request's overrides) and split the rows into training and holdout, before training. Names, " +
    "roles, handlings and scan types only.",
  payload: Schema.Struct({
    generatorId: GeneratorId,
    attempt: Attempt,
    /** Which scan the roles come from: the stored basic or enhanced scan, or a basic scan the job ran (none stored). */
    scan: Schema.Literals(["basic", "enhanced", "generation"]),
    columns: Schema.Array(ResolvedColumn),
    trainingRows: Count,
    holdoutRows: Count
  })
})

export const GeneratorProgressed = defineEvent({
  type: "generator.progressed",
  version: 1,
  topic,
  description:
    "Progress of a running job, at most one a second per job (and at least one every GENERATION_HEARTBEAT while " +
    "it runs: the heartbeat that tells a live worker from a lost one). `losses` are the epochs finished since the " +
    "previous progress event.",
  payload: Schema.Struct({
    generatorId: GeneratorId,
    attempt: Attempt,
    phase: GenerationPhase,
    progress: Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 100 }))),
    losses: Schema.Array(EpochLoss)
  })
})

export const GeneratorCompleted = defineEvent({
  type: "generator.completed",
  version: 1,
  topic,
  description: "The model is fitted and stored, and the synthetic rows are stored as the output dataset.",
  payload: Schema.Struct({
    generatorId: GeneratorId,
    attempt: Attempt,
    outputDatasetId: DatasetId,
    rowCount: Count,
    model: ModelArtifact,
    timings: GenerationTimings,
    /** dp-ctgan only. Optional, so generator.completed v1 events written before it existed still read. */
    privacy: Schema.optional(PrivacySpent),
    /** What the output protections did; optional, older events lack it. */
    protection: Schema.optional(ProtectionCounts)
  })
})

export const GeneratorFailed = defineEvent({
  type: "generator.failed",
  version: 1,
  topic,
  description:
    "The job ended without output: training failed (the message says why, naming columns, never values), the " +
    "dataset could not be read (deleted meanwhile), or its worker was lost twice.",
  payload: Schema.Struct({
    generatorId: GeneratorId,
    attempt: Attempt,
    reason: GenerationFailureReason,
    message: Schema.String
  })
})

export const GeneratorCancelRequested = defineEvent({
  type: "generator.cancel-requested",
  version: 1,
  topic,
  description: "The owner asked to stop a running job.",
  payload: Schema.Struct({ generatorId: GeneratorId })
})

export const GeneratorCancelled = defineEvent({
  type: "generator.cancelled",
  version: 1,
  topic,
  description: "The job was stopped on request; nothing of it is kept (no model, no output).",
  payload: Schema.Struct({ generatorId: GeneratorId, attempt: Schema.NullOr(Attempt) })
})

export const GeneratorRequeued = defineEvent({
  type: "generator.requeued",
  version: 1,
  topic,
  description:
    "No heartbeat came from the job's worker for GENERATION_STALL_TIMEOUT (a crashed process): the job starts " +
    "again from the beginning as the given attempt, with the same seed.",
  payload: Schema.Struct({ generatorId: GeneratorId, attempt: Attempt, message: Schema.String })
})

export const GeneratorSampleRequested = defineEvent({
  type: "generator.sample-requested",
  version: 1,
  topic,
  description: "The owner asked for more rows from a completed generator's stored model, as a new output dataset.",
  payload: Schema.Struct({
    generatorId: GeneratorId,
    ownerId: UserId,
    outputDatasetId: DatasetId,
    outputFilename: Schema.String,
    numRows: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))),
    seed: Count,
    /** Optional, so sample requests written before issue 26 still read. */
    conditions: Schema.optional(RequestedConditions)
  })
})

export const GeneratorSampled = defineEvent({
  type: "generator.sampled",
  version: 1,
  topic,
  description: "Rows drawn from the stored model were stored as the requested output dataset.",
  payload: Schema.Struct({ generatorId: GeneratorId, outputDatasetId: DatasetId, rowCount: Count, sampleMs: Millis })
})

export const GeneratorSampleFailed = defineEvent({
  type: "generator.sample-failed",
  version: 1,
  topic,
  description:
    "A sample request ended without output (the stored model could not be read or sampled, or its conditions " +
    "could not be met).",
  payload: Schema.Struct({
    generatorId: GeneratorId,
    outputDatasetId: DatasetId,
    message: Schema.String,
    /** Optional, so events written before issue 26 still read. */
    reason: Schema.optional(GenerationFailureReason)
  })
})

export const GeneratorDeleted = defineEvent({
  type: "generator.deleted",
  version: 1,
  topic,
  description:
    "The generator of a user being forgotten was deleted with its stored model and its read-model rows (its output " +
    "datasets go with their own `dataset.deleted`). Only a job that is no longer running is deleted.",
  payload: Schema.Struct({ generatorId: GeneratorId })
})

export const generatorEvents = [
  GeneratorRequested,
  GeneratorStarted,
  GeneratorPrepared,
  GeneratorProgressed,
  GeneratorCompleted,
  GeneratorFailed,
  GeneratorCancelRequested,
  GeneratorCancelled,
  GeneratorRequeued,
  GeneratorSampleRequested,
  GeneratorSampled,
  GeneratorSampleFailed,
  GeneratorDeleted
] as const
