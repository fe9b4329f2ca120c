import { describe, expect, it } from "@effect/vitest"
import type { EventEnvelope } from "@synth/contracts"
import { Data, Effect, Logger, References } from "effect"
import type { StoredEvent } from "../EventLog.ts"
import { eventHandler } from "./eventHandler.ts"

const datasetId = "01a20253-ea72-701b-80bc-457caed70551"

const stored = (type: string, payload: unknown, version = 1): StoredEvent => ({
  topic: "synth.dataset",
  partition: 0,
  offset: 7,
  key: datasetId,
  appendedAt: "2026-11-28T10:00:00.000Z",
  envelope: {
    eventId: "01a20253-ea72-701b-80bc-457caed70560" as EventEnvelope["eventId"],
    type,
    version,
    aggregateId: datasetId,
    occurredAt: "2026-11-28T10:00:00.000Z" as EventEnvelope["occurredAt"],
    actor: "service:gateway",
    correlationId: "request-1",
    causationId: null,
    payload
  }
})

class Broken extends Data.TaggedError("Broken")<{ readonly datasetId: string }> {}

const logged = (lines: Array<{ message: unknown; annotations: Record<string, unknown> }>) =>
  Logger.layer([
    Logger.make(({ fiber, message }) => {
      lines.push({ message, annotations: { ...fiber.getRef(References.CurrentLogAnnotations) } })
    })
  ])

describe("eventHandler", () => {
  const calls: Array<string> = []
  const handle = eventHandler({ consumer: "profiling", span: "Test.handle", keyAnnotation: "datasetId" }, {
    "dataset.profile-requested": ({ payload }, { offset }) =>
      Effect.andThen(Effect.logInfo("profiling"), Effect.sync(() => calls.push(`profile ${payload.datasetId} @${offset}`))),
    "dataset.deleted": ({ payload }) => Effect.fail(new Broken({ datasetId: payload.datasetId }))
  })

  it.effect("hands each listed event, decoded, to the handler of its type, with the logs annotated", () =>
    Effect.gen(function* () {
      calls.length = 0
      const lines: Array<{ message: unknown; annotations: Record<string, unknown> }> = []
      yield* handle(stored("dataset.profile-requested", { datasetId })).pipe(Effect.provide(logged(lines)))
      expect(calls).toEqual([`profile ${datasetId} @7`])
      expect(lines).toEqual([
        { message: ["profiling"], annotations: { eventId: "01a20253-ea72-701b-80bc-457caed70560", datasetId } }
      ])
      expect(yield* Effect.flip(handle(stored("dataset.deleted", { datasetId })))).toEqual(new Broken({ datasetId }))
    }))

  it.effect("ignores an event the consumer does not list, and skips one it cannot decode with a warning", () =>
    Effect.gen(function* () {
      calls.length = 0
      const lines: Array<{ message: unknown; annotations: Record<string, unknown> }> = []
      yield* handle(stored("dataset.pii-scan-requested", { datasetId, scan: "basic" })).pipe(Effect.provide(logged(lines)))
      expect(lines).toEqual([])
      yield* handle(stored("dataset.profile-requested", { datasetId }, 99)).pipe(Effect.provide(logged(lines)))
      expect(calls).toEqual([])
      expect(lines).toHaveLength(1)
      expect(lines[0]?.message).toEqual([
        "event not understood by this version of the profiling service; skipped",
        { type: "dataset.profile-requested", version: 99, error: expect.any(String) }
      ])
    }))
})

// Checked by the typecheck, not at run time: the handlers must cover every event type the consumer's entry lists.
// @ts-expect-error "dataset.deleted" has no handler
void eventHandler({ consumer: "profiling", span: "Test.handle", keyAnnotation: "datasetId" }, {
  "dataset.profile-requested": () => Effect.void
})
