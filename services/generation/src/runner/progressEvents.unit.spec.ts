import { describe, expect, it } from "@effect/vitest"
import type { GeneratorId } from "@synth/contracts"
import { Deferred, Effect, Fiber, Ref } from "effect"
import { TestClock } from "effect/testing"
import type { Report } from "../worker/runInWorker.ts"
import { type ProgressEvent, withProgressEvents } from "./progressEvents.ts"

const generatorId = "0192f0c0-0000-7000-8000-0000000000a1" as GeneratorId

describe("withProgressEvents", () => {
  it.effect("says the start at once, then what changed at most once a second, a heartbeat when nothing did, and a last word", () =>
    Effect.gen(function* () {
      const appended = yield* Ref.make<ReadonlyArray<ProgressEvent>>([])
      const reports = yield* Ref.make<(report: Report) => void>(() => undefined)
      const done = yield* Deferred.make<void>()
      const job = yield* withProgressEvents(
        {
          generatorId,
          attempt: 1,
          epochs: 4,
          heartbeat: "3 seconds",
          append: (event) => Ref.update(appended, (events) => [...events, event])
        },
        (onReport) => Effect.andThen(Ref.set(reports, onReport), Deferred.await(done))
      ).pipe(Effect.forkChild)
      const progressOf = Effect.map(Ref.get(appended), (events) =>
        events.map((event) => event.type === "generator.progressed" ? event.payload.progress : event.type))
      const report = (message: Report) => Effect.flatMap(Ref.get(reports), (onReport) => Effect.sync(() => onReport(message)))

      yield* TestClock.adjust("10 millis")
      expect(yield* progressOf).toEqual([5])
      yield* report({ kind: "prepared", scan: "basic", columns: [], trainingRows: 8, holdoutRows: 2 })
      yield* report({ kind: "epoch", epoch: 1, losses: { generator: 1 } })
      yield* report({ kind: "epoch", epoch: 2, losses: { generator: 0.5 } })
      yield* TestClock.adjust("1 second")
      expect(yield* progressOf).toEqual([5, "generator.prepared", 45])
      const [, , changed] = yield* Ref.get(appended)
      expect(changed?.payload).toMatchObject({ attempt: 1, phase: "fitting", losses: [{ epoch: 1 }, { epoch: 2 }] })
      yield* TestClock.adjust("2 seconds")
      expect(yield* progressOf).toEqual([5, "generator.prepared", 45])
      yield* TestClock.adjust("1 second")
      expect(yield* progressOf).toEqual([5, "generator.prepared", 45, 45])
      // The job ends before the next tick: the last event still says what changed since the previous one.
      yield* report({ kind: "epoch", epoch: 3, losses: { generator: 0.4 } })
      yield* Deferred.succeed(done, undefined)
      yield* Fiber.join(job)
      expect(yield* progressOf).toEqual([5, "generator.prepared", 45, 45, 65])
      const events = yield* Ref.get(appended)
      const epochsSaid = events.flatMap((event) =>
        event.type === "generator.progressed" && event.payload.losses.length > 0 ? [event.payload.losses.map((loss) => loss.epoch)] : [])
      expect(epochsSaid).toEqual([[1, 2], [3]])
      expect(events.filter((event) => event.type === "generator.prepared")).toHaveLength(1)
    }))
})
