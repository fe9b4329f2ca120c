// The catalog's upcasting, as every consumer meets it: through decodeDomainEvent and understoodEvent.
import { describe, expect, it } from "@effect/vitest"
import {
  datasetProfiledV1ToV2,
  decodeDomainEvent,
  encodeDomainEvent,
  type EventEnvelope,
  eventCatalog,
  eventUpcasters,
  UnknownEventType
} from "@synth/contracts"
import { Effect, Option, Result } from "effect"
import { understoodEvent } from "./understoodEvent.ts"

const datasetId = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"

const envelope = (version: number, payload: unknown): EventEnvelope => ({
  eventId: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a60" as EventEnvelope["eventId"],
  type: "dataset.profiled",
  version,
  aggregateId: datasetId,
  occurredAt: "2026-11-23T05:00:00.000Z" as EventEnvelope["occurredAt"],
  actor: "service:profiling",
  correlationId: "request-1",
  causationId: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a61",
  payload
})

const v1Payload = {
  datasetId,
  profileBlobKey: `datasets/${datasetId}/profile`,
  profileSha256: "ab".repeat(32),
  profileSize: 2048,
  rowCount: 344,
  columnCount: 7,
  dataQualityScore: 0.87,
  level: "Good",
  warningCount: 2
}

const v2Payload = {
  datasetId,
  profile: { blobKey: `datasets/${datasetId}/profile`, sha256: "ab".repeat(32), size: 2048 },
  rowCount: 344,
  columnCount: 7,
  quality: { score: 0.87, level: "Good", warningCount: 2 }
}

describe("dataset.profiled v1 → v2", () => {
  it.effect("decodes a stored v1 envelope as the v2 event, every field carried over", () =>
    Effect.gen(function*() {
      const decoded = yield* decodeDomainEvent(envelope(1, v1Payload))
      expect(decoded).toStrictEqual({ type: "dataset.profiled", version: 2, payload: v2Payload })
    }))

  it.effect("gives the same event for the v1 and the v2 form of the same facts", () =>
    Effect.gen(function*() {
      const fromV1 = yield* decodeDomainEvent(envelope(1, v1Payload))
      const fromV2 = yield* decodeDomainEvent(envelope(2, v2Payload))
      expect(fromV1).toStrictEqual(fromV2)
      expect(yield* encodeDomainEvent(fromV1)).toStrictEqual({ type: "dataset.profiled", version: 2, payload: v2Payload })
    }))

  it.effect("validates a v1 payload against v1's schema before upcasting it", () =>
    Effect.gen(function*() {
      const outOfRange = yield* Effect.result(decodeDomainEvent(envelope(1, { ...v1Payload, dataQualityScore: 1.5 })))
      expect(Result.isFailure(outOfRange) && outOfRange.failure._tag).toBe("SchemaError")
      const v2ShapeAsV1 = yield* Effect.result(decodeDomainEvent(envelope(1, v2Payload)))
      expect(Result.isFailure(v2ShapeAsV1) && v2ShapeAsV1.failure._tag).toBe("SchemaError")
    }))

  it.effect("hands a consumer the v2 event for a stored v1 envelope", () =>
    Effect.gen(function*() {
      const stored = { topic: "synth.dataset", partition: 0, offset: 0, key: datasetId, appendedAt: "2026-11-23T05:00:01.000Z", envelope: envelope(1, v1Payload) }
      const understood = yield* understoodEvent(stored, "profiling")
      expect(Option.getOrThrow(understood)).toStrictEqual({ type: "dataset.profiled", version: 2, payload: v2Payload })
    }))

  it.effect("refuses a version neither written nor upcast", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(decodeDomainEvent(envelope(3, v2Payload)))
      expect(error).toBeInstanceOf(UnknownEventType)
    }))

  it("upcasts a decoded v1 payload on its own", () => {
    expect(datasetProfiledV1ToV2.upcast(v1Payload as never)).toStrictEqual(v2Payload)
  })
})

describe("the catalog's versions", () => {
  it("lists only current versions, and every upcaster ends at one of them", () => {
    const current = new Map(eventCatalog.map((definition) => [definition.type, definition.version]))
    expect(current.get("dataset.profiled")).toBe(2)
    for (const upcaster of eventUpcasters) {
      expect(upcaster.from.version).toBeLessThan(current.get(upcaster.from.type as never)!)
      expect(upcaster.to.version).toBe(upcaster.from.version + 1)
    }
  })
})
