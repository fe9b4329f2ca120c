import { describe, expect, it } from "@effect/vitest"
import type { DatasetId, GeneratorId, UserId } from "@synth/contracts"
import { Result } from "effect"
import {
  applies,
  AttemptNotStartable,
  type Command,
  decide,
  decidedTypes,
  type Event,
  evolve,
  GeneratorNotCompleted,
  GeneratorSettled,
  GeneratorUnknown,
  initialState,
  type Refusal,
  SampleNotPending
} from "./generator.ts"
import { generatorEvents } from "./testing.ts"

const generatorId = "0192f0c0-0000-7000-8000-0000000000a1" as GeneratorId
const ownerId = "0192f0c0-0000-7000-8000-0000000000b1" as UserId
const outputDatasetId = "0192f0c0-0000-7000-8000-0000000000c1" as DatasetId
const sampleDatasetId = "0192f0c0-0000-7000-8000-0000000000c2" as DatasetId

const given = (...events: ReadonlyArray<Event>) => ({
  when: (command: Command) => {
    const outcome = decide(command, events.reduce(evolve, initialState))
    // Every decision stays within the types the command declares (the event catalog's check relies on it).
    if (Result.isSuccess(outcome)) {
      const declared: ReadonlyArray<string> = decidedTypes[command._tag]
      for (const event of outcome.success) expect(declared).toContain(event.type)
    }
    return {
      then: (expected: ReadonlyArray<Event>) => expect(outcome).toStrictEqual(Result.succeed(expected)),
      thenRefused: (refusal: new (...args: never) => Refusal) =>
        expect(Result.isFailure(outcome) && outcome.failure instanceof refusal).toBe(true)
    }
  }
})

const {
  cancelled,
  cancelRequested,
  completed,
  deleted,
  failed,
  progressed,
  requested,
  requeued,
  sampled: sampledInto,
  sampleFailed,
  sampleRequested: sampleRequestedInto,
  started
} = generatorEvents({ generatorId, ownerId, datasetId: "0192f0c0-0000-7000-8000-0000000000d1" as DatasetId, outputDatasetId })
const sampleRequested = sampleRequestedInto(sampleDatasetId)
const sampled = sampledInto(sampleDatasetId)

const lost: Command = { _tag: "DeclareWorkerLost", maxAttempts: 2, stallTimeout: "30s" }
const start = (attempt: number): Command => ({ _tag: "Start", attempt, worker: "generation-1" })

describe("generator decider", () => {
  describe("Start (the dispatcher and the runner)", () => {
    it("starts attempt 1 of a requested job", () => {
      given(requested).when(start(1)).then([started(1)])
    })

    it("starts a requeued job as the attempt it was requeued as, and no other", () => {
      const requeue = requeued(2, "lost")
      given(requested, started(1), requeue).when(start(2)).then([started(2)])
      given(requested, started(1), requeue).when(start(1)).thenRefused(AttemptNotStartable)
    })

    it("refuses an attempt that already started (a redelivered request)", () => {
      given(requested, started(1)).when(start(1)).thenRefused(AttemptNotStartable)
    })

    it("refuses a job whose owner asked to cancel it while it was queued", () => {
      given(requested, cancelRequested).when(start(1)).thenRefused(AttemptNotStartable)
    })

    it("refuses a job that has ended", () => {
      given(requested, started(1), completed(1)).when(start(1)).thenRefused(AttemptNotStartable)
      given(requested, cancelled(null)).when(start(1)).thenRefused(AttemptNotStartable)
    })

    it("knows no job before its request, nor after its deletion", () => {
      given().when(start(1)).thenRefused(GeneratorUnknown)
      given(requested, started(1), completed(1), deleted).when(start(1)).thenRefused(GeneratorUnknown)
    })
  })

  describe("RequestCancel (the owner)", () => {
    it("records the request while the job runs, queued or started", () => {
      given(requested).when({ _tag: "RequestCancel" }).then([cancelRequested])
      given(requested, started(1), progressed(1)).when({ _tag: "RequestCancel" }).then([cancelRequested])
    })

    it("refuses once the job has ended, naming how", () => {
      const outcome = decide({ _tag: "RequestCancel" }, [requested, started(1), completed(1)].reduce(evolve, initialState))
      expect(outcome).toStrictEqual(Result.fail(new GeneratorSettled({ status: "completed" })))
      given(requested, started(1), failed(1, "lost")).when({ _tag: "RequestCancel" }).thenRefused(GeneratorSettled)
    })

    it("refuses an unknown generator", () => {
      given().when({ _tag: "RequestCancel" }).thenRefused(GeneratorUnknown)
    })
  })

  describe("Cancel (a generation instance that received the cancel request)", () => {
    it("cancels the attempt it interrupted in its own process", () => {
      given(requested, started(1), cancelRequested).when({ _tag: "Cancel", interruptedAttempt: 1 }).then([cancelled(1)])
    })

    it("cancels a job still queued at once, with no attempt before the first start", () => {
      given(requested, cancelRequested).when({ _tag: "Cancel", interruptedAttempt: null }).then([cancelled(null)])
    })

    it("cancels a requeued job that waits for its next attempt, naming that attempt", () => {
      given(requested, started(1), requeued(2, "lost"), cancelRequested)
        .when({ _tag: "Cancel", interruptedAttempt: null })
        .then([cancelled(2)])
    })

    it("leaves a job started elsewhere to the instance that runs it", () => {
      given(requested, started(1), cancelRequested).when({ _tag: "Cancel", interruptedAttempt: null }).then([])
    })

    it("does nothing for a job that has ended", () => {
      given(requested, started(1), completed(1), cancelRequested).when({ _tag: "Cancel", interruptedAttempt: 1 }).then([])
    })
  })

  describe("DeclareWorkerLost (the watchdog)", () => {
    it("requeues a started job as the next attempt while attempts are left", () => {
      given(requested, started(1))
        .when(lost)
        .then([requeued(2, "No heartbeat from the worker of attempt 1 for 30s: started again as attempt 2.")])
    })

    it("fails the job once its worker was lost on every attempt", () => {
      given(requested, started(1), requeued(2, "lost"), started(2))
        .when(lost)
        .then([failed(2, "The worker running this job was lost 2 times (no heartbeat for 30s). Start a new generation; if it happens again, use fewer rows.")])
    })

    it("cancels, rather than requeues, a lost job whose owner asked to cancel it", () => {
      given(requested, started(1), cancelRequested).when(lost).then([cancelled(1)])
    })

    it("leaves alone a job waiting for a worker, and one that has ended", () => {
      given(requested).when(lost).then([])
      given(requested, started(1), requeued(2, "lost")).when(lost).then([])
      given(requested, started(1), completed(1)).when(lost).then([])
    })
  })

  describe("HandBack (a process shutting down)", () => {
    it("requeues the attempt it ran as the next one", () => {
      given(requested, started(1))
        .when({ _tag: "HandBack", attempt: 1 })
        .then([requeued(2, "The process running attempt 1 shut down: started again as attempt 2.")])
    })

    it("cancels a handed-back job whose owner asked to cancel it", () => {
      given(requested, started(1), cancelRequested).when({ _tag: "HandBack", attempt: 1 }).then([cancelled(1)])
    })

    it("hands back the attempt it ran even when its start is not folded in yet", () => {
      given(requested)
        .when({ _tag: "HandBack", attempt: 1 })
        .then([requeued(2, "The process running attempt 1 shut down: started again as attempt 2.")])
    })

    it("hands back nothing once the job ended or moved on to another attempt", () => {
      given(requested, started(1), completed(1)).when({ _tag: "HandBack", attempt: 1 }).then([])
      given(requested, started(1), requeued(2, "lost")).when({ _tag: "HandBack", attempt: 1 }).then([])
    })
  })

  describe("samples", () => {
    const request = {
      ownerId,
      outputDatasetId: sampleDatasetId,
      outputFilename: "people-sample-3.csv",
      numRows: 20,
      seed: 3
    }

    it("records the owner's request for rows from a completed job", () => {
      given(requested, started(1), completed(1)).when({ _tag: "RequestSample", request }).then([sampleRequested])
    })

    it("refuses a sample of a job that has not completed, naming its status", () => {
      const running = [requested, started(1)].reduce(evolve, initialState)
      expect(decide({ _tag: "RequestSample", request }, running)).toStrictEqual(
        Result.fail(new GeneratorNotCompleted({ status: "running" }))
      )
      given(requested, started(1), failed(1, "lost")).when({ _tag: "RequestSample", request }).thenRefused(GeneratorNotCompleted)
      given(requested, cancelRequested, cancelled(null)).when({ _tag: "RequestSample", request }).thenRefused(GeneratorNotCompleted)
      given().when({ _tag: "RequestSample", request }).thenRefused(GeneratorUnknown)
    })

    it("draws a pending sample from the stored model", () => {
      given(requested, started(1), completed(1), sampleRequested)
        .when({ _tag: "StartSample", outputDatasetId: sampleDatasetId })
        .then([])
    })

    it("fails a sample of a job without a stored model", () => {
      given(requested, started(1), failed(1, "lost"), sampleRequested)
        .when({ _tag: "StartSample", outputDatasetId: sampleDatasetId })
        .then([{
          type: "generator.sample-failed",
          version: 1,
          payload: {
            generatorId,
            outputDatasetId: sampleDatasetId,
            reason: "training_failed",
            message: "The generator has no stored model to sample from."
          }
        }])
    })

    it("does not draw a sample twice (a redelivered request)", () => {
      given(requested, started(1), completed(1), sampleRequested, sampled)
        .when({ _tag: "StartSample", outputDatasetId: sampleDatasetId })
        .thenRefused(SampleNotPending)
    })
  })

  describe("evolve", () => {
    const fold = (...events: ReadonlyArray<Event>) => events.reduce(evolve, initialState)

    it("keeps the first outcome: a late completion after a failure changes nothing", () => {
      expect(fold(requested, started(1), failed(1, "lost"), completed(1))).toMatchObject({ status: "failed", modelBlobKey: null })
    })

    it("ignores a start of an attempt older than the current one, and a requeue that is not newer", () => {
      expect(fold(requested, started(1), requeued(2, "lost"), started(1))).toMatchObject({ attempt: 2, started: false })
      expect(fold(requested, started(1), requeued(2, "lost"), started(2), requeued(2, "again"))).toMatchObject({ attempt: 2, started: true })
    })

    it("keeps the first request of an id (a redelivered request does not start it over)", () => {
      expect(fold(requested, started(1), requested)).toMatchObject({ attempt: 1, started: true })
    })

    it("counts a report only from the attempt that runs: not while it waits for a worker, nor from an older one", () => {
      const job = fold(requested, started(1), requeued(2, "lost"))
      expect(applies(job, progressed(1))).toBe(false)
      expect(applies(evolve(job, started(2)), progressed(2))).toBe(true)
      expect(applies(evolve(job, started(2)), progressed(1))).toBe(false)
      expect(applies(fold(requested, started(1), completed(1)), progressed(1))).toBe(false)
    })

    it("counts an event once: applying it again changes nothing (redelivery, replay)", () => {
      const history = [requested, started(1), progressed(1), requeued(2, "lost"), started(2), completed(2), sampleRequested, sampled]
      history.reduce((state, event) => {
        const next = evolve(state, event)
        expect(applies(next, event) && event.type !== "generator.progressed").toBe(false)
        expect(evolve(next, event)).toStrictEqual(next)
        return next
      }, initialState)
    })

    it("folds a sample's outcome once", () => {
      const state = fold(requested, started(1), completed(1), sampleRequested, sampled, sampleFailed(sampleDatasetId))
      expect(state).toMatchObject({ samples: new Map([[sampleDatasetId, "completed"]]) })
    })
  })
})
