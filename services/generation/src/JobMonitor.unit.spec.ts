// The monitor over an in-memory generator topic: its fold (the decider's state of each job, as of an event) and
// the watchdog's decisions about jobs whose worker went silent. No Kafka, no worker threads.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { JobMonitor } from "./JobMonitor.ts"
import { LocalJobs } from "./LocalJobs.ts"
import {
  append,
  cancelRequested,
  generatorId,
  logged,
  monitorLayer,
  request,
  requested,
  started,
  typesLogged
} from "./testing/jobLog.ts"

/** Waits (with a bound) until the topic holds `count` events. */
const untilLogged = (count: number) =>
  Effect.gen(function* () {
    while ((yield* logged).length < count) yield* Effect.sleep("20 millis")
  }).pipe(Effect.timeout("5 seconds"))

/** A requested job whose attempt 1 started in this process: its fiber, registered with LocalJobs. */
const startedHere = Effect.gen(function* () {
  yield* append(requested)
  const start = yield* append(started(1))
  const running = yield* Effect.forkChild(Effect.never)
  yield* (yield* LocalJobs).register(generatorId, { fiber: running, attempt: 1, cause: start.envelope })
  return running
})

describe("JobMonitor", () => {
  it.live("folds each job's events into the decider's state, as of the event awaited", () =>
    Effect.gen(function* () {
      const monitor = yield* JobMonitor
      yield* append(requested)
      const start = yield* append(started(1))
      yield* monitor.awaitFolded(start.partition, start.offset)
      const job = monitor.job(generatorId)
      expect(job?.request).toStrictEqual(request)
      expect(job?.state).toMatchObject({ status: "running", attempt: 1, started: true, cancelRequested: false })
      expect(job?.lastEvent.eventId).toBe(start.envelope.eventId)
      expect(monitor.job("0192f0c0-0000-7000-8000-00000000ffff")).toBeUndefined()
    }).pipe(Effect.provide(monitorLayer({ GENERATION_STALL_TIMEOUT: "1 minute" }))))

  it.live("awaitFolded waits for an event not folded yet and wakes when it is", () =>
    Effect.gen(function* () {
      const monitor = yield* JobMonitor
      const waiting = yield* Effect.forkChild(monitor.awaitFolded(0, 1))
      yield* append(requested)
      yield* Effect.sleep("50 millis")
      expect(waiting.pollUnsafe()).toBeUndefined()
      yield* append(started(1))
      yield* Fiber.join(waiting).pipe(Effect.timeout("2 seconds"))
      expect(monitor.job(generatorId)?.state).toMatchObject({ started: true })
    }).pipe(Effect.provide(monitorLayer({ GENERATION_STALL_TIMEOUT: "1 minute" }))))

  it.live("cancels a job still queued as soon as its cancel request is folded", () =>
    Effect.gen(function* () {
      yield* append(requested)
      yield* append(cancelRequested)
      yield* untilLogged(3)
      expect(yield* typesLogged).toEqual(["generator.requested", "generator.cancel-requested", "generator.cancelled"])
      const [, cancel, cancelled] = yield* logged
      expect(cancelled!.envelope.payload).toEqual({ generatorId, attempt: null })
      expect(cancelled!.envelope.causationId).toBe(cancel!.envelope.eventId)
    }).pipe(Effect.provide(monitorLayer({ GENERATION_STALL_TIMEOUT: "1 minute" }))))

  it.live("leaves a job started by another instance to that instance when its cancel request comes", () =>
    Effect.gen(function* () {
      const monitor = yield* JobMonitor
      yield* append(requested)
      yield* append(started(1))
      const cancel = yield* append(cancelRequested)
      yield* monitor.awaitFolded(cancel.partition, cancel.offset)
      yield* Effect.sleep("100 millis")
      expect(yield* typesLogged).toEqual(["generator.requested", "generator.started", "generator.cancel-requested"])
    }).pipe(Effect.provide(monitorLayer({ GENERATION_STALL_TIMEOUT: "1 minute" }))))

  it.live("interrupts the attempt it runs itself and cancels that attempt", () =>
    Effect.gen(function* () {
      const running = yield* startedHere
      yield* append(cancelRequested)
      yield* untilLogged(4)
      expect((yield* logged)[3]!.envelope).toMatchObject({ type: "generator.cancelled", payload: { generatorId, attempt: 1 } })
      expect(running.pollUnsafe()).toBeDefined()
    }).pipe(Effect.provide(monitorLayer({ GENERATION_STALL_TIMEOUT: "1 minute" }))))

  describe("the watchdog", () => {
    it.live("requeues a silent started job as the next attempt, then fails it once the attempts ran out", () =>
      Effect.gen(function* () {
        yield* append(requested)
        yield* append(started(1))
        yield* untilLogged(3)
        const requeued = (yield* logged)[2]!.envelope
        expect(requeued).toMatchObject({ type: "generator.requeued", payload: { generatorId, attempt: 2 } })
        yield* append(started(2))
        yield* untilLogged(5)
        const failed = (yield* logged)[4]!.envelope
        expect(failed).toMatchObject({ type: "generator.failed", payload: { generatorId, attempt: 2, reason: "worker_lost" } })
      }).pipe(Effect.provide(monitorLayer())))

    it.live("keeps the requeue the follower folded while the append that wrote it had not returned yet", () =>
      Effect.gen(function* () {
        const monitor = yield* JobMonitor
        yield* append(requested)
        yield* append(started(1))
        yield* untilLogged(3)
        // The watchdog's append answers 400 ms after the requeue became readable; by then the follower has folded it.
        yield* Effect.sleep("600 millis")
        expect(monitor.job(generatorId)?.state).toMatchObject({ status: "running", attempt: 2, started: false })
        const start = yield* append(started(2))
        yield* monitor.awaitFolded(start.partition, start.offset)
        expect(monitor.job(generatorId)?.state).toMatchObject({ attempt: 2, started: true })
      }).pipe(Effect.provide(monitorLayer({ GENERATION_STALL_TIMEOUT: "300 millis" }, "400 millis"))))

    it.live("leaves alone a silent job that runs in this process (its heartbeats are its own fiber's)", () =>
      Effect.gen(function* () {
        yield* startedHere
        yield* Effect.sleep("600 millis")
        expect(yield* typesLogged).toEqual(["generator.requested", "generator.started"])
      }).pipe(Effect.provide(monitorLayer())))

    it.live("cancels, rather than requeues, a silent job whose owner asked to cancel it", () =>
      Effect.gen(function* () {
        yield* append(requested)
        yield* append(started(1))
        yield* append(cancelRequested)
        yield* untilLogged(4)
        expect((yield* logged)[3]!.envelope).toMatchObject({ type: "generator.cancelled", payload: { attempt: 1 } })
      }).pipe(Effect.provide(monitorLayer())))
  })
})
