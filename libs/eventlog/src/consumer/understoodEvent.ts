import { decodeDomainEvent, type DomainEvent } from "@synth/contracts"
import { Effect, Option } from "effect"
import type { StoredEvent } from "../EventLog.ts"

/**
 * The domain event a consumer received, or none when this version of the service does not know its type or
 * version (a newer producer, an event retired since). Such an event is skipped with a warning rather than failing
 * the handler: redelivery would fail the same way forever and hold up the partition behind it.
 */
export const understoodEvent = (
  stored: StoredEvent,
  service: string
): Effect.Effect<Option.Option<DomainEvent>> =>
  decodeDomainEvent(stored.envelope).pipe(
    Effect.map(Option.some),
    Effect.catch((error) =>
      Effect.as(
        Effect.logWarning(`event not understood by this version of the ${service} service; skipped`, {
          type: stored.envelope.type,
          version: stored.envelope.version,
          error: error._tag
        }),
        Option.none()
      )
    )
  )
