import type { DatasetId, DomainEventOf, GenerationFailureReason, GeneratorId, UserId } from "@synth/contracts"
import type { Outcome } from "../worker/runInWorker.ts"

/** What a worker answered when its job succeeded. */
export type Done = Extract<Outcome, { kind: "done" }>

/** Where a job's synthetic rows go: a new dataset of the job's owner. */
export interface OutputTarget {
  readonly datasetId: DatasetId
  readonly ownerId: UserId
  readonly generatorId: GeneratorId
  readonly filename: string
}

/** The stored output table, as `dataset.synthesized` describes it. */
export const synthesized = (
  outcome: Done,
  target: OutputTarget,
  table: { readonly key: string; readonly size: number; readonly sha256: string }
): DomainEventOf<"dataset.synthesized"> => ({
  type: "dataset.synthesized",
  version: 1,
  payload: {
    datasetId: target.datasetId,
    ownerId: target.ownerId,
    generatorId: target.generatorId,
    filename: target.filename,
    rowCount: outcome.rowCount,
    columnCount: outcome.columns.length,
    columns: outcome.columns,
    tableBlobKey: table.key,
    tableSize: table.size,
    sha256: table.sha256
  }
})

export const completed = (
  job: { readonly generatorId: GeneratorId; readonly outputDatasetId: DatasetId },
  attempt: number,
  outcome: Done,
  model: { readonly key: string; readonly size: number; readonly sha256: string },
  totalMs: number
): DomainEventOf<"generator.completed"> => ({
  type: "generator.completed",
  version: 1,
  payload: {
    generatorId: job.generatorId,
    attempt,
    outputDatasetId: job.outputDatasetId,
    rowCount: outcome.rowCount,
    model: {
      blobKey: model.key,
      sha256: model.sha256,
      size: model.size,
      format: outcome.model?.format ?? "unknown",
      formatVersion: outcome.model?.formatVersion ?? 0
    },
    timings: { fitMs: Math.round(outcome.fitMs), sampleMs: Math.round(outcome.sampleMs), totalMs },
    ...(outcome.model?.privacy ? { privacy: outcome.model.privacy } : {}),
    ...(outcome.protection === null ? {} : { protection: outcome.protection })
  }
})

export const failed = (
  generatorId: GeneratorId,
  attempt: number,
  reason: GenerationFailureReason,
  message: string
): DomainEventOf<"generator.failed"> => ({
  type: "generator.failed",
  version: 1,
  payload: { generatorId, attempt, reason, message }
})

export const sampled = (
  job: { readonly generatorId: GeneratorId; readonly outputDatasetId: DatasetId },
  outcome: Done
): DomainEventOf<"generator.sampled"> => ({
  type: "generator.sampled",
  version: 1,
  payload: {
    generatorId: job.generatorId,
    outputDatasetId: job.outputDatasetId,
    rowCount: outcome.rowCount,
    sampleMs: Math.round(outcome.sampleMs)
  }
})

/** A sample without output: refused by the worker (a reason of the rules', else the model was unusable) or its thread died. */
export const sampleFailed = (
  job: { readonly generatorId: GeneratorId; readonly outputDatasetId: DatasetId },
  outcome: Extract<Outcome, { kind: "refused" }> | { readonly kind: "lost"; readonly message: string }
): DomainEventOf<"generator.sample-failed"> => ({
  type: "generator.sample-failed",
  version: 1,
  payload: {
    generatorId: job.generatorId,
    outputDatasetId: job.outputDatasetId,
    message: outcome.message,
    reason: outcome.kind === "lost" ? "worker_lost" : outcome.reason ?? "training_failed"
  }
})
