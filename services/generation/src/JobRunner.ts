import { BlobKey, BlobStore } from "@synth/blobstore"
import type { DatasetId, EventEnvelope, GenerationFailureReason, GeneratorId, ResolvedColumn, UserId } from "@synth/contracts"
import { defaultProtectionSettings } from "@synth/protect"
import { EventWriter } from "@synth/eventlog"
import { describeDuration } from "@synth/synth"
import { Cause, Clock, Context, Deferred, Duration, Effect, Fiber, Layer, Metric, Option, Redacted, Ref, Schedule, Scope, Semaphore, Stream } from "effect"
import { createHmac, randomBytes } from "node:crypto"
import { GenerationConfig } from "./GenerationConfig.ts"
import { generationActor, type JobRequest } from "./JobMonitor.ts"
import { LocalJobs } from "./LocalJobs.ts"
import { latestStoredScan } from "./storedScan.ts"
import { type Outcome, type Report, runInWorker } from "./worker/runInWorker.ts"

/** The sampling worker's thread died under its job. */
interface WorkerLost {
  readonly kind: "lost"
  readonly message: string
}

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

/** Where a running job's progress stands: what the next progress event says. */
interface Progress {
  readonly phase: "fitting" | "sampling"
  readonly progress: number
  readonly losses: ReadonlyArray<{ readonly epoch: number; readonly losses: Readonly<Record<string, number>> }>
  /** Changed since the last progress event. */
  readonly dirty: boolean
  /** The worker's resolved roles and row split, until `generator.prepared` says them. */
  readonly prepared: Prepared | null
}

interface Prepared {
  readonly scan: "basic" | "enhanced" | "generation"
  readonly columns: ReadonlyArray<ResolvedColumn>
  readonly trainingRows: number
  readonly holdoutRows: number
}

/** Progress bands: loading the table is the first 5%, fitting up to 85%, sampling and storing the rest. */
const fittingBand = [5, 85] as const
const samplingBand = [85, 99] as const
const inBand = (band: readonly [number, number], fraction: number) => Math.floor(band[0] + (band[1] - band[0]) * fraction)

const readAll = <E>(stream: Stream.Stream<Uint8Array, E>) =>
  Effect.map(Stream.runCollect(stream), (chunks) => {
    const parts = chunks
    const bytes = new Uint8Array(parts.reduce((size, part) => size + part.length, 0))
    let offset = 0
    for (const part of parts) {
      bytes.set(part, offset)
      offset += part.length
    }
    return bytes
  })

/** Prometheus gauges of this process's jobs: waiting for a GENERATION_CONCURRENCY slot, and holding one. */
const queuedJobs = Metric.gauge("generation_jobs_queued", {
  description: "Generation jobs (training or sampling) in this process waiting for a free GENERATION_CONCURRENCY slot."
})
const runningJobs = Metric.gauge("generation_jobs_running", {
  description: "Generation jobs (training or sampling) running in this process."
})

/**
 * Runs generation jobs: at most GENERATION_CONCURRENCY at once in this process, each in its own worker thread.
 * A job appends `generator.started`, progress events (at most one a second, and one every GENERATION_HEARTBEAT
 * while nothing changes: the heartbeat), then stores the model and the output table in the blob store and appends
 * `dataset.synthesized` and `generator.completed`, or `generator.failed`. Outcome ids derive from the event that
 * dispatched the job, so a redelivered dispatch appends nothing twice.
 */
export class JobRunner extends Context.Service<JobRunner>()("@synth/generation/JobRunner", {
  make: Effect.gen(function* () {
    const blobs = yield* BlobStore
    const writer = yield* EventWriter
    const localJobs = yield* LocalJobs
    const config = yield* GenerationConfig
    const permits = yield* Semaphore.make(config.concurrency)
    // Registers both gauges, so a scrape shows 0 before the first job rather than nothing.
    yield* Metric.modify(queuedJobs, 0)
    yield* Metric.modify(runningJobs, 0)
    const scope = yield* Effect.scope
    // Jobs run in a scope of their own, closed only after the finalizer below has handed them back (finalizers run
    // in reverse order: the child scope's close was added first).
    const jobScope = yield* Scope.fork(scope, "sequential")

    const context = (generatorId: string, cause: EventEnvelope, eventIds: "derived" | "fresh") => ({
      aggregateId: generatorId,
      actor: generationActor,
      correlationId: cause.correlationId,
      causationId: cause.eventId,
      eventIds
    })

    /**
     * At shutdown every training running here is stopped and handed back: `generator.requeued` with the next attempt,
     * so the next process (or another instance) starts it at once instead of waiting for the watchdog.
     */
    const handBack = Effect.suspend(() => Effect.forEach(
      localJobs.all(),
      ([generatorId, job]) =>
        Effect.gen(function* () {
          yield* Fiber.interrupt(job.fiber)
          const message = `The process running attempt ${job.attempt} shut down: started again as attempt ${job.attempt + 1}.`
          yield* writer.append(
            [{ type: "generator.requeued", version: 1, payload: { generatorId: generatorId as GeneratorId, attempt: job.attempt + 1, message } }],
            context(generatorId, job.cause, "fresh")
          )
          yield* Effect.logInfo("generation job handed back at shutdown", { generatorId, attempt: job.attempt + 1 })
        }).pipe(
          Effect.catchCause((cause) => Effect.logError("handing a job back at shutdown failed; the watchdog will requeue it", cause))
        ),
      { discard: true }
    ))
    yield* Effect.addFinalizer(() => handBack)

    /** Appends progress events while `run` works: on change at most once a second, and a heartbeat regardless. */
    const withProgressEvents = <A, E, R>(
      generatorId: GeneratorId,
      attempt: number,
      cause: EventEnvelope,
      progress: Ref.Ref<Progress>,
      run: Effect.Effect<A, E, R>
    ) =>
      Effect.gen(function* () {
        let lastSent = yield* Clock.currentTimeMillis
        /** `final`: only what changed since the last event (the last epochs' losses), no heartbeat. */
        const tick = (final: boolean) => Effect.gen(function* () {
          const now = yield* Clock.currentTimeMillis
          const { prepared } = yield* Ref.get(progress)
          if (prepared !== null) {
            yield* Ref.update(progress, (state) => ({ ...state, prepared: null }))
            yield* writer.append(
              [{ type: "generator.prepared", version: 1, payload: { generatorId, attempt, ...prepared } }],
              context(generatorId, cause, "derived")
            )
          }
          const current = yield* Ref.get(progress)
          if (!current.dirty && (final || now - lastSent < Duration.toMillis(config.heartbeat))) return
          yield* Ref.update(progress, (state) => ({ ...state, losses: [], dirty: false }))
          lastSent = now
          yield* writer.append(
            [{
              type: "generator.progressed",
              version: 1,
              payload: { generatorId, attempt, phase: current.phase, progress: current.progress, losses: current.losses }
            }],
            context(generatorId, cause, "fresh")
          )
        })
        const ticking = yield* Effect.forkChild(Effect.repeat(tick(false), Schedule.spaced("1 second")))
        const result = yield* Effect.ensuring(run, Fiber.interrupt(ticking))
        yield* tick(true)
        return result
      })

    const onReport = (progress: Ref.Ref<Progress>, epochs: number | null) => (report: Report) => {
      const update = (change: (state: Progress) => Progress) => Effect.runSync(Ref.update(progress, change))
      switch (report.kind) {
        case "loaded":
          return
        case "prepared": {
          const { columns, holdoutRows, scan, trainingRows } = report
          return update((state) => ({ ...state, prepared: { scan, columns, trainingRows, holdoutRows } }))
        }
        case "progress":
          return update((state) => ({
            ...state,
            phase: report.phase,
            progress: Math.max(state.progress, inBand(report.phase === "fitting" ? fittingBand : samplingBand, report.fraction)),
            dirty: true
          }))
        case "epoch":
          return update((state) => ({
            ...state,
            phase: "fitting",
            progress: epochs === null ? state.progress : Math.max(state.progress, inBand(fittingBand, report.epoch / epochs)),
            losses: [...state.losses, { epoch: report.epoch, losses: report.losses }],
            dirty: true
          }))
      }
    }

    /** The generator's own noise secret: derived from GENERATION_NOISE_SECRET, or drawn afresh for this job. */
    const noiseSecretOf = (generatorId: GeneratorId) =>
      Option.match(config.noiseSecret, {
        onNone: () => randomBytes(32).toString("base64url"),
        onSome: (secret) => createHmac("sha256", Redacted.value(secret)).update(generatorId).digest("base64url")
      })

    const fail = (job: JobRequest, attempt: number, cause: EventEnvelope, reason: GenerationFailureReason, message: string) =>
      writer.append(
        [{ type: "generator.failed", version: 1, payload: { generatorId: job.generatorId, attempt, reason, message } }],
        context(job.generatorId, cause, "derived")
      )

    const storeOutput = (
      outcome: Extract<Outcome, { kind: "done" }>,
      target: { readonly datasetId: DatasetId; readonly ownerId: UserId; readonly generatorId: GeneratorId; readonly filename: string },
      cause: EventEnvelope
    ) =>
      Effect.gen(function* () {
        const tableKey = BlobKey.make("datasets", target.datasetId, "table")
        const stored = yield* blobs.put(tableKey, Stream.make(outcome.table))
        yield* writer.append(
          [{
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
              tableBlobKey: tableKey,
              tableSize: stored.size,
              sha256: stored.sha256
            }
          }],
          { ...context(target.generatorId, cause, "derived"), aggregateId: target.datasetId }
        )
      })

    /** The whole job, in the calling fiber (the dispatcher forks it). */
    const train = (job: JobRequest, attempt: number, cause: EventEnvelope) =>
      Effect.gen(function* () {
        const startedAt = yield* Clock.currentTimeMillis
        const table = yield* readAll(blobs.get(BlobKey.make("datasets", job.datasetId, "table"))).pipe(
          Effect.map((bytes) => ({ _tag: "Read" as const, bytes })),
          Effect.catchTag("BlobNotFound", () => Effect.succeed({ _tag: "Missing" as const }))
        )
        if (table._tag === "Missing") {
          return yield* fail(job, attempt, cause, "dataset_unavailable", "The dataset's table is gone (was the dataset deleted?).")
        }
        const scan = yield* latestStoredScan(blobs, job.datasetId)
        const progress = yield* Ref.make<Progress>({
          phase: "fitting",
          progress: fittingBand[0],
          losses: [],
          dirty: true,
          prepared: null
        })
        const overrides = Object.fromEntries(Object.entries(job.columns ?? {}).map(([name, { handling }]) => [name, handling]))
        const training = (threads: 1 | 2) =>
          withProgressEvents(
            job.generatorId,
            attempt,
            cause,
            progress,
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
              onReport(progress, job.parameters.epochs)
            )
          )
        // A CTGAN or TVAE training takes a second core when one is free now (its permit is held until the training
        // ends); otherwise, and for every other model, it trains on one.
        const dataParallel = config.trainingThreads === 2 && (job.generatorType === "ctgan" || job.generatorType === "tvae")
        const outcome = yield* (dataParallel
          ? training(2).pipe(
            permits.withPermitsIfAvailable(1),
            Effect.flatMap(Option.match({ onNone: () => training(1), onSome: Effect.succeed }))
          )
          : training(1)).pipe(
            Effect.catchTag("WorkerCrashed", (crash) =>
              Effect.succeed<Outcome>({ kind: "refused", message: `The training worker stopped: ${crash.message}` }))
          )
        if (outcome.kind === "refused") return yield* fail(job, attempt, cause, outcome.reason ?? "training_failed", outcome.message)
        const model = outcome.artifact ?? new Uint8Array()
        const modelKey = BlobKey.make("generators", job.generatorId, "model")
        const storedModel = yield* blobs.put(modelKey, Stream.make(model))
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
          [{
            type: "generator.completed",
            version: 1,
            payload: {
              generatorId: job.generatorId,
              attempt,
              outputDatasetId: job.outputDatasetId,
              rowCount: outcome.rowCount,
              model: {
                blobKey: modelKey,
                sha256: storedModel.sha256,
                size: storedModel.size,
                format: outcome.model?.format ?? "unknown",
                formatVersion: outcome.model?.formatVersion ?? 0
              },
              timings: { fitMs: Math.round(outcome.fitMs), sampleMs: Math.round(outcome.sampleMs), totalMs },
              ...(outcome.model?.privacy ? { privacy: outcome.model.privacy } : {}),
              ...(outcome.protection === null ? {} : { protection: outcome.protection })
            }
          }],
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
          Effect.map((outcome): Outcome | WorkerLost => outcome),
          Effect.catchTag("WorkerCrashed", (crash) =>
            Effect.succeed<WorkerLost>({ kind: "lost", message: `The sampling worker stopped: ${crash.message}` }))
        )
        const outcomeContext = context(job.generatorId, cause, "derived")
        if (outcome.kind === "refused" || outcome.kind === "lost") {
          return yield* writer.append(
            [{
              type: "generator.sample-failed",
              version: 1,
              payload: {
                generatorId: job.generatorId,
                outputDatasetId: job.outputDatasetId,
                message: outcome.message,
                // A refusal without a reason of the rules': the stored model could not be read or sampled.
                reason: outcome.kind === "lost" ? "worker_lost" : outcome.reason ?? "training_failed"
              }
            }],
            outcomeContext
          )
        }
        yield* storeOutput(outcome, {
          datasetId: job.outputDatasetId,
          ownerId: job.ownerId,
          generatorId: job.generatorId,
          filename: job.outputFilename
        }, cause)
        yield* writer.append(
          [{
            type: "generator.sampled",
            version: 1,
            payload: {
              generatorId: job.generatorId,
              outputDatasetId: job.outputDatasetId,
              rowCount: outcome.rowCount,
              sampleMs: Math.round(outcome.sampleMs)
            }
          }],
          outcomeContext
        )
      })

    /**
     * Waits for a free slot, then starts the job in the background and returns: the dispatcher's cursor moves on
     * once the job is registered (a crash from here on is the watchdog's to notice).
     */
    const start = (
      generatorId: GeneratorId,
      attempt: number,
      startCause: EventEnvelope,
      run: Effect.Effect<void, unknown>,
      cancellable: boolean,
      announce: Effect.Effect<unknown>,
      stillWanted: Effect.Effect<boolean>
    ) =>
      Effect.gen(function* () {
        yield* Metric.modify(queuedJobs, 1)
        yield* permits.take(1).pipe(Effect.ensuring(Metric.modify(queuedJobs, -1)))
        // A job cancelled (or finished elsewhere) while it waited for the slot gives the slot back unused.
        if (!(yield* stillWanted)) return yield* permits.release(1)
        yield* Metric.modify(runningJobs, 1)
        const release = Effect.andThen(Metric.modify(runningJobs, -1), permits.release(1))
        yield* Effect.onError(announce, () => release)
        // Registered before it runs, so a cancel request never finds the job neither here nor registered.
        const registered = yield* Deferred.make<void>()
        const fiber = yield* Deferred.await(registered).pipe(
          Effect.andThen(run),
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause) ? Effect.void : Effect.logError("generation job failed unexpectedly", cause)
          ),
          Effect.ensuring(release),
          Effect.annotateLogs({ generatorId, attempt }),
          Effect.forkIn(jobScope)
        )
        if (cancellable) {
          yield* localJobs.register(generatorId, { fiber, attempt, cause: startCause })
          yield* Effect.forkIn(Effect.andThen(Fiber.await(fiber), localJobs.unregister(generatorId, fiber)), jobScope)
        }
        yield* Deferred.succeed(registered, undefined)
      })

    /**
     * `generator.started` is appended before the dispatcher's cursor moves past the request: from then on a crash
     * leaves a started job without heartbeats, which the watchdog finds; before it, the request is delivered again.
     */
    const announceStart = (job: JobRequest, attempt: number, cause: EventEnvelope) =>
      writer.append(
        [{ type: "generator.started", version: 1, payload: { generatorId: job.generatorId, attempt, worker: config.instanceId } }],
        context(job.generatorId, cause, "derived")
      )

    return {
      /** `stillWanted` is asked once the slot is free: false when the job was cancelled or ended meanwhile. */
      startTraining: (job: JobRequest, attempt: number, cause: EventEnvelope, stillWanted: Effect.Effect<boolean>) =>
        start(job.generatorId, attempt, cause, train(job, attempt, cause), true, announceStart(job, attempt, cause), stillWanted),
      startSampling: (job: SampleJob, cause: EventEnvelope) =>
        start(job.generatorId, 0, cause, sample(job, cause), false, Effect.void, Effect.succeed(true))
    } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([EventWriter.layer]))
}
