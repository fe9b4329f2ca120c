// Generator events for tests of the decider and of the services that follow it (the gateway's projection, the
// generation service's monitor and dispatcher): one job, its attempts and samples, with the ids a test chooses.
import type { DatasetId, GeneratorId, UserId } from "@synth/contracts"
import type { Event, RequestedGeneration } from "./generator.ts"

export interface JobIds {
  readonly generatorId: GeneratorId
  readonly ownerId: UserId
  readonly datasetId: DatasetId
  readonly outputDatasetId: DatasetId
}

export const generatorEvents = (ids: JobIds, request: Partial<RequestedGeneration> = {}) => {
  const { generatorId } = ids
  const requested: Event & { type: "generator.requested" } = {
    type: "generator.requested",
    version: 1,
    payload: {
      ...ids,
      generatorType: "ctgan",
      parameters: { numRows: 100, epochs: 4, batchSize: 50, targetEpsilon: null },
      seed: 7,
      outputFilename: "people-synthetic.csv",
      estimatedSeconds: 12,
      ...request
    }
  }
  return {
    requested,
    started: (attempt: number, worker = "generation-1"): Event => ({
      type: "generator.started",
      version: 1,
      payload: { generatorId, attempt, worker }
    }),
    progressed: (attempt: number, progress = 40, epoch?: number): Event => ({
      type: "generator.progressed",
      version: 1,
      payload: {
        generatorId,
        attempt,
        phase: "fitting",
        progress,
        losses: epoch === undefined ? [] : [{ epoch, losses: { generator: epoch } }]
      }
    }),
    requeued: (attempt: number, message = "lost"): Event => ({
      type: "generator.requeued",
      version: 1,
      payload: { generatorId, attempt, message }
    }),
    completed: (attempt: number): Event => ({
      type: "generator.completed",
      version: 1,
      payload: {
        generatorId,
        attempt,
        outputDatasetId: ids.outputDatasetId,
        rowCount: 100,
        model: { blobKey: `generators/${generatorId}/model`, sha256: "ab", size: 10, format: "ctgan", formatVersion: 1 },
        timings: { fitMs: 1, sampleMs: 1, totalMs: 2 }
      }
    }),
    failed: (attempt: number, message = "lost"): Event => ({
      type: "generator.failed",
      version: 1,
      payload: { generatorId, attempt, reason: "worker_lost", message }
    }),
    cancelRequested: { type: "generator.cancel-requested", version: 1, payload: { generatorId } } satisfies Event as Event,
    cancelled: (attempt: number | null): Event => ({
      type: "generator.cancelled",
      version: 1,
      payload: { generatorId, attempt }
    }),
    sampleRequested: (outputDatasetId: DatasetId): Event => ({
      type: "generator.sample-requested",
      version: 1,
      payload: {
        generatorId,
        ownerId: ids.ownerId,
        outputDatasetId,
        outputFilename: "people-sample-3.csv",
        numRows: 20,
        seed: 3
      }
    }),
    sampled: (outputDatasetId: DatasetId): Event => ({
      type: "generator.sampled",
      version: 1,
      payload: { generatorId, outputDatasetId, rowCount: 20, sampleMs: 5 }
    }),
    sampleFailed: (outputDatasetId: DatasetId, message = "late"): Event => ({
      type: "generator.sample-failed",
      version: 1,
      payload: { generatorId, outputDatasetId, message, reason: "worker_lost" }
    }),
    deleted: { type: "generator.deleted", version: 1, payload: { generatorId } } satisfies Event as Event
  }
}
