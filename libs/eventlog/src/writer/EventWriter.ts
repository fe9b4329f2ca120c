import { encodeDomainEvent, topicOf, type Actor, type DomainEvent, type EventEnvelope } from "@synth/contracts"
import { Clock, Context, DateTime, Effect, Layer, Metric } from "effect"
import type { NonEmptyReadonlyArray } from "effect/Array"
import { EventLog } from "../EventLog.ts"
import { Ids } from "./Ids.ts"

export interface EventContext {
  readonly aggregateId: string
  readonly actor: Actor
  /** The request id that started the chain of events. */
  readonly correlationId: string
  /** The event this one reacts to, or null for events decided on a user's request. */
  readonly causationId: string | null
  /**
   * `fresh` (the default): new time-ordered ids. `derived`: each id is derived from the causation id and the event
   * type, so a handler that reacts to a redelivered event appends the same ids again, which the log's idempotent
   * append turns into no-ops. Needs a causation id; one event of a type per cause.
   */
  readonly eventIds?: "fresh" | "derived"
}

/** Prometheus `eventlog_appends_total{topic,type}`: `rate()` of it is the append rate. */
export const appendsTotal = Metric.counter("eventlog_appends_total", {
  description: "Events appended to the event log by this process (acknowledged appends, idempotent re-appends included), by topic and type."
})

/** Wraps decided events in envelopes and appends them to the topic their definition names. */
export class EventWriter extends Context.Service<EventWriter>()("@synth/eventlog/EventWriter", {
  make: Effect.gen(function* () {
    const log = yield* EventLog
    const ids = yield* Ids

    const eventIdOf = (event: DomainEvent, context: EventContext) => {
      if (context.eventIds !== "derived") return ids.next
      if (context.causationId === null) return Effect.die(new Error("derived event ids need a causation id"))
      return Effect.succeed(ids.forName(`outcome:${context.causationId}:${event.type}`))
    }

    const envelope = Effect.fn("EventWriter.envelope")(function* (event: DomainEvent, context: EventContext) {
      const encoded = yield* encodeDomainEvent(event).pipe(Effect.orDie)
      const occurredAt = DateTime.formatIso(DateTime.makeUnsafe(yield* Clock.currentTimeMillis))
      const result: EventEnvelope = {
        eventId: (yield* eventIdOf(event, context)) as EventEnvelope["eventId"],
        type: encoded.type,
        version: encoded.version,
        aggregateId: context.aggregateId,
        occurredAt,
        actor: context.actor,
        correlationId: context.correlationId,
        causationId: context.causationId,
        payload: encoded.payload
      }
      return { topic: topicOf(event.type), envelope: result }
    })

    const append = Effect.fn("EventWriter.append")(function* (
      events: NonEmptyReadonlyArray<DomainEvent>,
      context: EventContext
    ) {
      const records = yield* Effect.forEach(events, (event) => envelope(event, context))
      // The log being unreachable is not the caller's fault: a defect, answered as "internal error" and logged.
      const positions = yield* log.append(records as NonEmptyReadonlyArray<(typeof records)[number]>).pipe(Effect.orDie)
      yield* Effect.forEach(records, ({ envelope, topic }) =>
        Metric.update(Metric.withAttributes(appendsTotal, { topic, type: envelope.type }), 1), { discard: true })
      return positions
    })

    return { append } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([Ids.layer]))
}
