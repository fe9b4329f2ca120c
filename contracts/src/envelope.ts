import { Schema } from "effect"
import { EventId, Timestamp } from "./ids.ts"

/**
 * Who caused an event: `user:<uuid>`, `service:<name>` or `anonymous` (e.g. a failed login for an unknown email).
 * A plain string keeps actor filters in the audit endpoints simple.
 */
export const Actor = Schema.String.pipe(
  Schema.pattern(/^(user:[0-9a-f-]{36}|service:[a-z][a-z0-9-]*|anonymous)$/),
  Schema.annotations({ identifier: "Actor" })
)
export type Actor = typeof Actor.Type

export const userActor = (userId: string): Actor => `user:${userId}`
export const serviceActor = (name: string): Actor => `service:${name}`

/**
 * The one envelope every event travels in. `payload` is decoded by the catalog against the schema registered for
 * `(type, version)`; the envelope itself never changes shape.
 */
export const EventEnvelope = Schema.Struct({
  eventId: EventId,
  type: Schema.String,
  version: Schema.Int.pipe(Schema.positive()),
  aggregateId: Schema.String,
  occurredAt: Timestamp,
  actor: Actor,
  correlationId: Schema.String,
  causationId: Schema.NullOr(Schema.String),
  payload: Schema.Unknown
}).annotations({ identifier: "EventEnvelope" })
export type EventEnvelope = typeof EventEnvelope.Type
