import { consumedBy, type ConsumedEvent, type DomainEvent, type EventConsumer, eventConsumers } from "@synth/contracts"
import { Effect, Option } from "effect"
import type { StoredEvent } from "../EventLog.ts"
import { understoodEvent } from "./understoodEvent.ts"

type HandlerOf<Event, E, R> = (event: Event, stored: StoredEvent) => Effect.Effect<void, E, R>

/** One handler for each event type the consumer's entry lists (a missing or extra one does not compile). */
export type EventHandlers<Consumer extends EventConsumer, E, R> = {
  readonly [Type in ConsumedEvent<Consumer>["type"]]: HandlerOf<Extract<ConsumedEvent<Consumer>, { readonly type: Type }>, E, R>
}

export interface EventHandlerOptions<Consumer extends EventConsumer> {
  /** The consumer's entry in the contracts' participants: which event types it reacts to, for which service. */
  readonly consumer: Consumer
  /** The tracing span of each call. */
  readonly span: string
  /** The log annotation the event's key (its aggregate's id) goes under, beside `eventId`. */
  readonly keyAnnotation: string
}

/**
 * A consumer's handler of one stored event: decoded as `understoodEvent` does (a type or version this service does
 * not know is skipped with a warning), passed to the handler of its type when the consumer's entry lists it, and
 * ignored otherwise. The logs of the call carry the event's id and key.
 */
export const eventHandler = <
  Consumer extends EventConsumer,
  const Handlers extends EventHandlers<Consumer, any, any>
>(
  options: EventHandlerOptions<Consumer>,
  handlers: Handlers
) => {
  type Outcome = ReturnType<Handlers[keyof Handlers]>
  const consumed = consumedBy(options.consumer)
  const service = eventConsumers[options.consumer].service
  // TypeScript cannot tie `handlers[event.type]` to the event's own type; EventHandlers checks each entry.
  const handlerOf = (event: DomainEvent) => handlers[event.type as keyof Handlers] as HandlerOf<DomainEvent, unknown, unknown>
  return (stored: StoredEvent): Effect.Effect<void, Effect.Error<Outcome>, Effect.Services<Outcome>> =>
    understoodEvent(stored, service).pipe(
      Effect.flatMap((understood) =>
        Option.isSome(understood) && consumed(understood.value)
          ? handlerOf(understood.value)(understood.value, stored)
          : Effect.void
      ),
      Effect.withSpan(options.span),
      Effect.annotateLogs({ eventId: stored.envelope.eventId, [options.keyAnnotation]: stored.key })
    ) as Effect.Effect<void, Effect.Error<Outcome>, Effect.Services<Outcome>>
}
