import { describe, expect, it } from "@effect/vitest"
import type { EventEnvelope } from "@synth/contracts"
import { Cause, Data, Effect, Logger } from "effect"
import { refuseOnDefect } from "./refuseOnDefect.ts"

class Refused extends Data.TaggedError("Refused")<{ readonly message: string }> {}
class Unreachable extends Data.TaggedError("Unreachable")<{}> {}

const cause = {
  eventId: "01a20253-ea72-701b-80bc-457caed70560",
  aggregateId: "01a20253-ea72-701b-80bc-457caed70551",
  correlationId: "request-1"
} as EventEnvelope

const refusing = refuseOnDefect(cause, "failed on a bug", (loggedWith) => new Refused({ message: `Internal error (${loggedWith}).` }))

describe("refuseOnDefect", () => {
  it.effect("turns a defect into the refusal, naming the event the cause was logged with", () =>
    Effect.gen(function* () {
      const logged: Array<{ message: unknown; cause: Cause.Cause<unknown> }> = []
      const capture = Logger.layer([Logger.make(({ cause, message }) => void logged.push({ message, cause }))])
      const error = yield* Effect.die(new Error("index out of range")).pipe(refusing, Effect.flip, Effect.provide(capture))
      expect(error).toEqual(new Refused({ message: "Internal error (logged with event 01a20253-ea72-701b-80bc-457caed70560)." }))
      expect(logged.map(({ message }) => message)).toEqual([["failed on a bug", new Error("index out of range")]])
    }))

  it.effect("lets successes and typed failures through", () =>
    Effect.gen(function* () {
      expect(yield* Effect.succeed(3).pipe(refusing)).toBe(3)
      expect(yield* Effect.fail(new Unreachable()).pipe(refusing, Effect.flip)).toEqual(new Unreachable())
    }))
})
