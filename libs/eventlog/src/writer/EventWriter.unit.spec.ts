import { describe, expect, it } from "@effect/vitest"
import { userActor, type UserId } from "@synth/contracts"
import { Effect, Layer, Metric } from "effect"
import { layerMemory } from "../memory.ts"
import { appendsTotal, EventWriter } from "./EventWriter.ts"

const appendsOf = (topic: string, type: string) =>
  Effect.map(
    Metric.value(Metric.withAttributes(Metric.withAttributes(appendsTotal, { topic: topic }), { type: type })),
    (state) => state.count
  )

describe("EventWriter", () => {
  it.effect("counts each appended event in eventlog_appends_total by topic and type", () =>
    Effect.gen(function* () {
      const writer = yield* EventWriter
      const before = yield* appendsOf("synth.user", "user.registered")
      const userId = crypto.randomUUID() as UserId
      yield* writer.append(
        [
          { type: "user.registered", version: 2, payload: { userId, email: { plain: "someone@example.com" }, passwordHash: { plain: "x" } } },
          { type: "user.registered", version: 2, payload: { userId, email: { plain: "other@example.com" }, passwordHash: { plain: "x" } } }
        ],
        { aggregateId: userId, actor: userActor(userId), correlationId: "request-12345678", causationId: null }
      )
      expect((yield* appendsOf("synth.user", "user.registered")) - before).toBe(2)
      expect(yield* appendsOf("synth.dataset", "user.registered")).toBe(0)
    }).pipe(Effect.provide(EventWriter.layer.pipe(Layer.provide(layerMemory())))))
})
