import { describe, expect, it } from "@effect/vitest"
import type { EventEnvelope, GeneratorId } from "@synth/contracts"
import { Deferred, Effect, Fiber, Ref } from "effect"
import { LocalJobs } from "../LocalJobs.ts"
import { makeJobSlots, type SlotRequest } from "./jobSlots.ts"

const generatorId = (n: number) => `0192f0c0-0000-7000-8000-00000000000${n}` as GeneratorId
const cause = { eventId: "cause", correlationId: "test" } as EventEnvelope

const request = (n: number, run: Effect.Effect<void>, admit: Effect.Effect<boolean> = Effect.succeed(true)): SlotRequest => ({
  generatorId: generatorId(n),
  attempt: 1,
  cause,
  run,
  cancellable: true,
  admit
})

describe("makeJobSlots", () => {
  it.live("runs one job per slot: the next starts when a slot frees, and start returns once its job runs", () =>
    Effect.scoped(Effect.gen(function* () {
      const slots = yield* makeJobSlots(1)
      const localJobs = yield* LocalJobs
      const firstDone = yield* Deferred.make<void>()
      const ran = yield* Ref.make<ReadonlyArray<number>>([])
      yield* slots.start(request(1, Effect.andThen(Ref.update(ran, (jobs) => [...jobs, 1]), Deferred.await(firstDone))))
      expect(localJobs.isRunning(generatorId(1))).toBe(true)
      const second = yield* Effect.forkChild(slots.start(request(2, Ref.update(ran, (jobs) => [...jobs, 2]))))
      yield* Effect.sleep("50 millis")
      expect(second.pollUnsafe()).toBeUndefined()
      yield* Deferred.succeed(firstDone, undefined)
      yield* Fiber.join(second).pipe(Effect.timeout("2 seconds"))
      yield* Effect.sleep("50 millis")
      expect(yield* Ref.get(ran)).toEqual([1, 2])
      expect(localJobs.isRunning(generatorId(1))).toBe(false)
    })).pipe(Effect.provide(LocalJobs.layer)))

  it.live("gives the slot back unused when the job is no longer admitted once it is free", () =>
    Effect.scoped(Effect.gen(function* () {
      const slots = yield* makeJobSlots(1)
      const ran = yield* Ref.make(false)
      yield* slots.start(request(1, Ref.set(ran, true), Effect.succeed(false)))
      yield* slots.start(request(2, Effect.void)).pipe(Effect.timeout("1 second"))
      expect(yield* Ref.get(ran)).toBe(false)
    })).pipe(Effect.provide(LocalJobs.layer)))

  it.live("lends a spare slot to a training only while one is free", () =>
    Effect.scoped(Effect.gen(function* () {
      const slots = yield* makeJobSlots(2)
      expect(yield* slots.withSpareSlot(Effect.succeed("two threads"))).toMatchObject({ _tag: "Some", value: "two threads" })
      const busy = yield* Deferred.make<void>()
      yield* slots.start(request(1, Deferred.await(busy)))
      yield* slots.start(request(2, Deferred.await(busy)))
      expect(yield* slots.withSpareSlot(Effect.succeed("two threads"))).toMatchObject({ _tag: "None" })
    })).pipe(Effect.provide(LocalJobs.layer)))
})
