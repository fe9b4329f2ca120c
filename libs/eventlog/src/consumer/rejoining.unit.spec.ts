import { describe, expect, it } from "@effect/vitest"
import { Cause, Data, Effect, Fiber, Layer, Logger, Queue, References } from "effect"
import { TestClock } from "effect/testing"
import { EventLog, type StoredEvent } from "../EventLog.ts"
import { layerMemory } from "../memory.ts"
import { payloadN, testEnvelope, uniqueTopic } from "../testing/fixtures.ts"
import { forkServiceConsumer, retryRejoining } from "./rejoining.ts"

class HandlerFailed extends Data.TaggedError("HandlerFailed")<{ readonly attempt: number }> {}

interface Logged {
  readonly level: string
  readonly message: unknown
  readonly cause: Cause.Cause<unknown>
  readonly annotations: Record<string, unknown>
}

const capturingLogger = (lines: Array<Logged>) =>
  Logger.layer([
    Logger.make(({ cause, fiber, logLevel, message }) => {
      lines.push({ level: logLevel, message, cause, annotations: { ...fiber.getRef(References.CurrentLogAnnotations) } })
    })
  ])

describe("retryRejoining", () => {
  it.effect("logs each failure's cause and runs the effect again, 200 ms, then 400 ms later", () =>
    Effect.gen(function* () {
      const lines: Array<Logged> = []
      let attempts = 0
      const flaky = Effect.suspend(() => {
        attempts++
        return attempts < 3 ? Effect.fail(new HandlerFailed({ attempt: attempts })) : Effect.succeed("done")
      })
      const fiber = yield* flaky.pipe(retryRejoining("worker failed; rejoining"), Effect.provide(capturingLogger(lines)), Effect.forkChild)
      yield* TestClock.adjust("199 millis")
      expect(attempts).toBe(1)
      yield* TestClock.adjust("1 millis")
      expect(attempts).toBe(2)
      yield* TestClock.adjust("399 millis")
      expect(attempts).toBe(2)
      yield* TestClock.adjust("1 millis")
      expect(yield* Fiber.join(fiber)).toBe("done")
      expect(lines.map(({ level, message }) => [level, message])).toEqual([
        ["Error", ["worker failed; rejoining"]],
        ["Error", ["worker failed; rejoining"]]
      ])
      expect(lines.map(({ cause }) => Cause.squash(cause))).toEqual([
        new HandlerFailed({ attempt: 1 }),
        new HandlerFailed({ attempt: 2 })
      ])
    }))

  it.effect("treats a defect like a failure", () =>
    Effect.gen(function* () {
      let attempts = 0
      const dying = Effect.suspend(() => (++attempts === 1 ? Effect.die(new Error("bug")) : Effect.succeed(attempts)))
      const fiber = yield* dying.pipe(retryRejoining("worker died"), Effect.provide(Logger.layer([])), Effect.forkChild)
      yield* TestClock.adjust("200 millis")
      expect(yield* Fiber.join(fiber)).toBe(2)
    }))
})

describe("forkServiceConsumer", () => {
  it.live("redelivers the event a failing handler stopped at, logging under the service's name", () =>
    Effect.gen(function* () {
      const lines: Array<Logged> = []
      const log = yield* EventLog
      const topic = uniqueTopic("rejoin")
      yield* log.append([{ topic, envelope: testEnvelope("a", 0) }, { topic, envelope: testEnvelope("a", 1) }])
      const handled = yield* Queue.unbounded<number>()
      let failures = 0
      const handle = (event: StoredEvent) =>
        payloadN(event) === 1 && failures++ === 0
          ? Effect.fail(new HandlerFailed({ attempt: failures }))
          : Queue.offer(handled, payloadN(event))
      yield* forkServiceConsumer("rejoin-test", { group: uniqueTopic("group"), topics: [topic], handle }).pipe(
        Effect.provide(capturingLogger(lines))
      )
      const seen = [yield* Queue.take(handled), yield* Queue.take(handled)]
      expect(seen).toEqual([0, 1])
      expect(failures).toBe(2)
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatchObject({
        level: "Error",
        message: ["rejoin-test consumer failed; rejoining"],
        annotations: { service: "rejoin-test" }
      })
    }).pipe(Effect.scoped, Effect.provide(Layer.fresh(layerMemory()))))
})
