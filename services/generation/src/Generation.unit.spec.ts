// The dispatcher's guards: over the monitor's state of an in-memory generator topic, with a runner double that
// records what it was asked to start. No Kafka, no worker threads.
import { describe, expect, it } from "@effect/vitest"
import type { DomainEvent } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { Context, Effect, Layer, Ref } from "effect"
import { Generation } from "./Generation.ts"
import { JobMonitor } from "./JobMonitor.ts"
import { JobRunner } from "./JobRunner.ts"
import {
  append,
  cancelRequested,
  completed,
  generatorId,
  logged,
  monitorLayer,
  request,
  requested,
  sampleDatasetId,
  sampleRequested,
  started,
  typesLogged
} from "./testing/jobLog.ts"

type Started = { readonly kind: "training"; readonly attempt: number } | { readonly kind: "sample"; readonly modelBlobKey: string }

/** What the runner double was asked to start. */
class StartedJobs extends Context.Service<StartedJobs, Ref.Ref<ReadonlyArray<Started>>>()("StartedJobs") {
  static readonly layer = Layer.effect(this, Ref.make<ReadonlyArray<Started>>([]))
}

const runnerDouble = Layer.effect(
  JobRunner,
  Effect.map(StartedJobs, (startedJobs) =>
    JobRunner.of({
      startTraining: (job, attempt) => {
        expect(job).toStrictEqual(request)
        return Ref.update(startedJobs, (jobs): ReadonlyArray<Started> => [...jobs, { kind: "training", attempt }])
      },
      startSampling: (job) =>
        Ref.update(startedJobs, (jobs): ReadonlyArray<Started> => [...jobs, { kind: "sample", modelBlobKey: job.modelBlobKey }])
    }))
)

const TestLayer = Generation.layer.pipe(
  Layer.provideMerge(runnerDouble),
  Layer.provideMerge(StartedJobs.layer),
  Layer.provideMerge(monitorLayer({ GENERATION_STALL_TIMEOUT: "1 minute" }))
)

/** Appends the events, then has the dispatcher handle the last one (as its consumer group would deliver it). */
const dispatch = (...events: ReadonlyArray<DomainEvent>) =>
  Effect.gen(function* () {
    const generation = yield* Generation
    let last
    for (const event of events) last = yield* append(event)
    yield* generation.handle(last!)
    return yield* Ref.get(yield* StartedJobs)
  })

/**
 * Has the dispatcher handle `delivered` (again) once the monitor has folded everything after it: a redelivery
 * that comes when the job has moved on.
 */
const redeliver = (delivered: StoredEvent) =>
  Effect.gen(function* () {
    const [last] = (yield* logged).slice(-1)
    yield* (yield* JobMonitor).awaitFolded(last!.partition, last!.offset)
    yield* (yield* Generation).handle(delivered)
    return yield* Ref.get(yield* StartedJobs)
  })

describe("Generation (the dispatcher)", () => {
  it.live("starts attempt 1 of a requested job", () =>
    Effect.gen(function* () {
      expect(yield* dispatch(requested)).toEqual([{ kind: "training", attempt: 1 }])
    }).pipe(Effect.provide(TestLayer)))

  it.live("starts nothing for a request delivered again after its job started", () =>
    Effect.gen(function* () {
      const first = yield* append(requested)
      yield* append(started(1))
      expect(yield* redeliver(first)).toEqual([])
    }).pipe(Effect.provide(TestLayer)))

  it.live("starts nothing for a request cancelled while it waited", () =>
    Effect.gen(function* () {
      const first = yield* append(requested)
      yield* append(cancelRequested)
      expect(yield* redeliver(first)).toEqual([])
    }).pipe(Effect.provide(TestLayer)))

  it.live("starts a requeued job as its next attempt, and not again once that attempt started", () =>
    Effect.gen(function* () {
      const requeue = (attempt: number): DomainEvent => ({
        type: "generator.requeued",
        version: 1,
        payload: { generatorId, attempt, message: "lost" }
      })
      expect(yield* dispatch(requested, started(1), requeue(2))).toEqual([{ kind: "training", attempt: 2 }])
      const requeued = (yield* logged)[2]!
      yield* append(started(2))
      expect(yield* redeliver(requeued)).toEqual([{ kind: "training", attempt: 2 }])
    }).pipe(Effect.provide(TestLayer)))

  it.live("draws a sample from a completed job's stored model", () =>
    Effect.gen(function* () {
      expect(yield* dispatch(requested, started(1), completed, sampleRequested)).toEqual([
        { kind: "sample", modelBlobKey: `generators/${generatorId}/model` }
      ])
    }).pipe(Effect.provide(TestLayer)))

  it.live("fails a sample of a job without a stored model, and draws nothing", () =>
    Effect.gen(function* () {
      expect(yield* dispatch(requested, sampleRequested)).toEqual([])
      expect(yield* typesLogged).toEqual(["generator.requested", "generator.sample-requested", "generator.sample-failed"])
      expect((yield* logged)[2]!.envelope.payload).toMatchObject({ outputDatasetId: sampleDatasetId, reason: "training_failed" })
    }).pipe(Effect.provide(TestLayer)))
})
