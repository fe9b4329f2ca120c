import type { Actor, EventEnvelope } from "@synth/contracts"
import type { EventContext } from "./EventWriter.ts"

/**
 * The context of the events a service appends in answer to `cause`: the same aggregate and request, caused by it, and
 * ids derived from it, so that answering a redelivered cause again appends nothing twice.
 */
export const outcomeContext = (actor: Actor, cause: EventEnvelope): EventContext => ({
  aggregateId: cause.aggregateId,
  actor,
  correlationId: cause.correlationId,
  causationId: cause.eventId,
  eventIds: "derived"
})
