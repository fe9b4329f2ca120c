import { describe, expect, it } from "@effect/vitest"
import type { EventEnvelope } from "@synth/contracts"
import { outcomeContext } from "./outcomeContext.ts"

const cause = {
  eventId: "01a20253-ea72-701b-80bc-457caed70560",
  aggregateId: "01a20253-ea72-701b-80bc-457caed70551",
  correlationId: "request-1"
} as EventEnvelope

describe("outcomeContext", () => {
  it("answers in the cause's aggregate and request, caused by it, with ids derived from it", () => {
    expect(outcomeContext("service:profiling", cause)).toEqual({
      aggregateId: cause.aggregateId,
      actor: "service:profiling",
      correlationId: "request-1",
      causationId: cause.eventId,
      eventIds: "derived"
    })
  })
})
