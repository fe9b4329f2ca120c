import { BlobKey, BlobStore, readAll, readShared } from "@synth/blobstore"
import type { DatasetId, EventEnvelope, GenerationFailureReason, GeneratorId, UserId } from "@synth/contracts"
import { EventWriter } from "@synth/eventlog"
import { GeneratorJob } from "@synth/jobs"
import { defaultProtectionSettings } from "@synth/protect/settings"
import { describeDuration } from "@synth/synth/planning"
import { Clock, Context, Effect, Fiber, Layer, Option, Redacted, Result, Stream } from "effect"
import { createHmac, randomBytes } from "node:crypto"
import { appendDecided } from "./appendDecided.ts"
import { GenerationConfig } from "./GenerationConfig.ts"
import { generationActor, JobMonitor } from "./JobMonitor.ts"
import { LocalJobs } from "./LocalJobs.ts"
import { makeJobSlots } from "./runner/jobSlots.ts"
import * as OutcomeEvents from "./runner/outcomeEvents.ts"
import { type ProgressEvent, withProgressEvents } from "./runner/progressEvents.ts"
import { latestStoredScan } from "./storedScan.ts"
import { type Outcome, runInWorker } from "./worker/runInWorker.ts"

/** A sample request: rows from a completed generator's stored model into a new dataset. */
export interface SampleJob {
  readonly generatorId: GeneratorId
  readonly ownerId: UserId
  readonly outputDatasetId: DatasetId
  readonly outputFilename: string
  readonly numRows: number
  readonly seed: number
  readonly modelBlobKey: string
  /** What the rows meet (issue 26), as the sample request gave them. */
  readonly conditions?: Readonly<Record<string, unknown>> | undefined
}

/**
 * Runs generation jobs: at most GENERATION_CONCURRENCY at once in this process (runner/jobSlots.ts), each in its own
 * worker thread. A job appends `generator.started` once the decider admits it, progress events (runner/
 * progressEvents.ts), then stores the model and the output table in the blob store and appends
 * `dataset.synthesized` and `generator.completed`, or `generator.failed` (runner/outcomeEvents.ts). Outcome ids
 * derive from the event that dispatched the job, so a redelivered dispatch appends nothing twice.
 */
export class JobRunner extends Context.Service<JobRunner>()("@synth/generation/JobRunner", {
  make: Effect.gen(function* () {
    const blobs = yield* BlobStore
    const writer = yield* EventWriter
    const localJobs = yield* LocalJobs
    const monitor = yield* JobMonitor
    const config = yield* GenerationConfig
    const slots = yield* makeJobSlots(config.concurrency)

    const context = (generatorId: string, cause: EventEnvelope, eventIds: "derived" | "fresh") => ({
      aggregateId: generatorId,
      actor: generationActor,
      correlationId: cause.correlationId,
      causationId: cause.eventId,
      eventIds
    })

    const lifecycle = (generatorId: string) => monitor.job(generatorId)?.state ?? GeneratorJob.initialState

    /**
     * At shutdown every training running here is stopped and handed back: the decider requeues it with the next
     * attempt, so the next process (or another instance) starts it at once instead of waiting for the watchdog.
     */
    const handBack = Effect.suspend(() => Effect.forEach(
      localJobs.all(),
      ([generatorId, job]) =>
        Effect.gen(function* () {
          yield* Fiber.interrupt(job.fiber)
          const decided = GeneratorJob.decide({ _tag: "HandBack", attempt: job.attempt }, lifecycle(generatorId))
          const events = Result.getOrElse(decided, () => [])
          yield* appendDecided(writer, events, context(generatorId, job.cause, "fresh"))
          yield* Effect.logInfo("generation job handed back at shutdown", { generatorId, decided: events.map((event) => event.type) })
        }).pipe(
          Effect.catchCause((cause) => Effect.logError("handing a job back at shutdown failed; the watchdog will requeue it", cause))
        ),
      { discard: true }
    ))
    yield* Effect.addFinalizer(() => handBack)

    /** The generator's own noise secret: derived from GENERATION_NOISE_SECRET, or drawn afresh for this job. */
    const noiseSecretOf = (generatorId: GeneratorId) =>
      Option.match(config.noiseSecret, {
        onNone: () => randomBytes(32).toString("base64url"),
        onSome: (secret) => createHmac("sha256", Redacted.value(secret)).update(generatorId).digest("base64url")
      })

    const fail = (
      job: GeneratorJob.RequestedGeneration,
      attempt: number,
      cause: EventEnvelope,
      reason: GenerationFailureReason,
      message: string
    ) => writer.append([OutcomeEvents.failed(job.generatorId, attempt, reason, message)], context(job.generatorId, cause, "derived"))

    const storeOutput = (outcome: OutcomeEvents.Done, target: OutcomeEvents.OutputTarget, cause: EventEnvelope) =>
      Effect.gen(function* () {
        const key = BlobKey.make("datasets", target.datasetId, "table")
        const stored = yield* blobs.put(key, Stream.make(outcome.table))
        yield* writer.append(
          [OutcomeEvents.synthesized(outcome, target, { key, size: stored.size, sha256: stored.sha256 })],
          { ...context(target.generatorId, cause, "derived"), aggregateId: target.datasetId }
        )
      })

    /** The whole job, in the calling fiber (the slot forks it). */
    const train = (job: GeneratorJob.RequestedGeneration, attempt: number, cause: EventEnvelope) =>
      Effect.gen(function* () {
        const startedAt = yield* Clock.currentTimeMillis
        // Shared with the worker thread, not copied into it: the table is held once while the job runs.
        const table = yield* readShared(blobs, BlobKey.make("datasets", job.datasetId, "table")).pipe(
          Effect.map((bytes) => ({ _tag: "Read" as const, bytes })),
          Effect.catchTag("BlobNotFound", () => Effect.succeed({ _tag: "Missing" as const }))
        )
        if (table._tag === "Missing") {
          return yield* fail(job, attempt, cause, "dataset_unavailable", "The dataset's table is gone (was the dataset deleted?).")
        }
        const scan = yield* latestStoredScan(blobs, job.datasetId)
        const overrides = Object.fromEntries(Object.entries(job.columns ?? {}).map(([name, { handling }]) => [name, handling]))
        const progressEvents = {
          generatorId: job.generatorId,
          attempt,
          epochs: job.parameters.epochs,
          heartbeat: config.heartbeat,
          append: (event: ProgressEvent) =>
            Effect.asVoid(writer.append([event], context(job.generatorId, cause, event.type === "generator.prepared" ? "derived" : "fresh")))
        }
        const training = (threads: 1 | 2) =>
          withProgressEvents(progressEvents, (onReport) =>
            runInWorker(
              {
                kind: "train",
                generator: job.generatorType,
                table: table.bytes,
                parameters: {
                  seed: job.seed,
                  epochs: job.parameters.epochs,
                  batchSize: job.parameters.batchSize,
                  targetEpsilon: job.parameters.targetEpsilon,
                  threads,
                  ...(job.generatorType === "dp-ctgan" ? { noiseSecret: noiseSecretOf(job.generatorId) } : {})
                },
                numRows: job.parameters.numRows,
                scan,
                overrides,
                // A request from before the protections existed (requeued after an upgrade) gets the defaults.
                protection: job.protection ?? defaultProtectionSettings,
                ...(job.constraints === undefined ? {} : { constraints: job.constraints }),
                ...(job.conditions === undefined ? {} : { conditions: job.conditions })
              },
              onReport
            ))
        // A CTGAN or TVAE training takes a second core when one is free now (its slot is held until the training
        // ends); otherwise, and for every other model, it trains on one.
        const dataParallel = config.trainingThreads === 2 && (job.generatorType === "ctgan" || job.generatorType === "tvae")
        const outcome = yield* (dataParallel
          ? slots.withSpareSlot(training(2)).pipe(Effect.flatMap(Option.match({ onNone: () => training(1), onSome: Effect.succeed })))
          : training(1)).pipe(
            Effect.catchTag("WorkerCrashed", (crash) =>
              Effect.succeed<Outcome>({ kind: "refused", message: `The training worker stopped: ${crash.message}` }))
          )
        if (outcome.kind === "refused") return yield* fail(job, attempt, cause, outcome.reason ?? "training_failed", outcome.message)
        const modelKey = BlobKey.make("generators", job.generatorId, "model")
        const storedModel = yield* blobs.put(modelKey, Stream.make(outcome.artifact ?? new Uint8Array()))
        if (outcome.filters !== null) {
          yield* blobs.put(BlobKey.make("generators", job.generatorId, "filters"), Stream.make(outcome.filters))
        }
        yield* storeOutput(outcome, {
          datasetId: job.outputDatasetId,
          ownerId: job.ownerId,
          generatorId: job.generatorId,
          filename: job.outputFilename
        }, cause)
        const totalMs = (yield* Clock.currentTimeMillis) - startedAt
        yield* writer.append(
          [OutcomeEvents.completed(job, attempt, outcome, { key: modelKey, size: storedModel.size, sha256: storedModel.sha256 }, totalMs)],
          context(job.generatorId, cause, "derived")
        )
        yield* Effect.logInfo("generation completed", {
          generatorId: job.generatorId,
          rows: outcome.rowCount,
          estimated: describeDuration(job.estimatedSeconds),
          took: describeDuration(totalMs / 1000)
        })
      })

    const sample = (job: SampleJob, cause: EventEnvelope) =>
      Effect.gen(function* () {
        const artifact = yield* readAll(blobs.get(BlobKey.make(...job.modelBlobKey.split("/"))))
        // A model trained before the protections existed has no filters beside it.
        const filters = yield* readAll(blobs.get(BlobKey.make("generators", job.generatorId, "filters"))).pipe(
          Effect.catchTag("BlobNotFound", () => Effect.succeed(null))
        )
        const outcome = yield* runInWorker(
          {
            kind: "sample",
            artifact,
            filters,
            numRows: job.numRows,
            seed: job.seed,
            ...(job.conditions === undefined ? {} : { conditions: job.conditions })
          },
          () => undefined
        ).pipe(
          Effect.map((outcome): Outcome | { readonly kind: "lost"; readonly message: string } => outcome),
          Effect.catchTag("WorkerCrashed", (crash) =>
            Effect.succeed({ kind: "lost" as const, message: `The sampling worker stopped: ${crash.message}` }))
        )
        const outcomeContext = context(job.generatorId, cause, "derived")
        if (outcome.kind === "refused" || outcome.kind === "lost") {
          return yield* writer.append([OutcomeEvents.sampleFailed(job, outcome)], outcomeContext)
        }
        yield* storeOutput(outcome, {
          datasetId: job.outputDatasetId,
          ownerId: job.ownerId,
          generatorId: job.generatorId,
          filename: job.outputFilename
        }, cause)
        yield* writer.append([OutcomeEvents.sampled(job, outcome)], outcomeContext)
      })

    /**
     * Asked once a slot is free: the decider admits the attempt only if it is still the job's next one (not
     * cancelled or ended meanwhile). `generator.started` is appended before the dispatcher's cursor moves past the
     * request: from then on a crash leaves a started job without heartbeats, which the watchdog finds; before it,
     * the request is delivered again.
     */
    const admitAttempt = (job: GeneratorJob.RequestedGeneration, attempt: number, cause: EventEnvelope) =>
      Effect.suspend(() => {
        const decided = GeneratorJob.decide({ _tag: "Start", attempt, worker: config.instanceId }, lifecycle(job.generatorId))
        return Result.isFailure(decided)
          ? Effect.as(Effect.logDebug("generation attempt not started", { attempt, refusal: decided.failure }), false)
          : Effect.as(appendDecided(writer, decided.success, context(job.generatorId, cause, "derived")), true)
      })

    return {
      startTraining: (job: GeneratorJob.RequestedGeneration, attempt: number, cause: EventEnvelope) =>
        slots.start({
          generatorId: job.generatorId,
          attempt,
          cause,
          run: train(job, attempt, cause),
          cancellable: true,
          admit: admitAttempt(job, attempt, cause)
        }),
      startSampling: (job: SampleJob, cause: EventEnvelope) =>
        slots.start({
          generatorId: job.generatorId,
          attempt: 0,
          cause,
          run: sample(job, cause),
          cancellable: false,
          admit: Effect.succeed(true)
        })
    } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([EventWriter.layer]))
}
