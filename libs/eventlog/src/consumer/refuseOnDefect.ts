import type { EventEnvelope } from "@synth/contracts"
import { Effect } from "effect"

/**
 * Turns a defect of a handler's work on one event into a refusal. The defect is a bug on this very input: redelivery
 * would hit it again and hold up every later event on the partition. The cause goes to the log (`logMessage`), never
 * to the client; `refusal` gets the words that tell the client where it was logged.
 */
export const refuseOnDefect = <Refusal>(
  cause: EventEnvelope,
  logMessage: string,
  refusal: (loggedWith: string) => Refusal
) =>
<A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | Refusal, R> =>
  Effect.catchDefect(self, (defect) =>
    Effect.andThen(Effect.logError(logMessage, defect), Effect.fail(refusal(`logged with event ${cause.eventId}`))))
