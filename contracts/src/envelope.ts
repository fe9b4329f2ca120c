import { Schema } from "effect"
import { EventId, Timestamp } from "./ids.ts"

/**
 * Who caused an event: `user:<uuid>`, `service:<name>` or `anonymous` (e.g. a failed login for an unknown email).
 * A plain string keeps actor filters in the audit endpoints simple.
 */
export const Actor = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^(user:[0-9a-f-]{36}|service:[a-z][a-z0-9-]*|anonymous)$/)),
  Schema.annotate({ identifier: "Actor" })
)
export type Actor = typeof Actor.Type

export const userActor = (userId: string): Actor => `user:${userId}`
export const serviceActor = (name: string): Actor => `service:${name}`

const Sha256Hex = Schema.String.pipe(Schema.check(Schema.isPattern(/^[0-9a-f]{64}$/)))

/**
 * Tamper evidence, assigned by the event log when it first stores an event: the event's place in its producer's
 * chain and the SHA-256 of its canonical JSON (RFC 8785) with `hash` left out, so chain, sequence and `previous`
 * are covered too. See docs/audit.md.
 */
export const Integrity = Schema.Struct({
  chain: Schema.String,
  sequence: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))),
  previous: Schema.NullOr(Sha256Hex),
  hash: Sha256Hex
}).annotate({ identifier: "Integrity" })
export type Integrity = typeof Integrity.Type

/**
 * The one envelope every event travels in. `payload` is decoded by the catalog against the schema registered for
 * `(type, version)`; the envelope itself never changes shape.
 */
export const EventEnvelope = Schema.Struct({
  eventId: EventId,
  type: Schema.String,
  version: Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))),
  aggregateId: Schema.String,
  occurredAt: Timestamp,
  actor: Actor,
  correlationId: Schema.String,
  causationId: Schema.NullOr(Schema.String),
  payload: Schema.Unknown,
  /** Absent on events stored before the log sealed them, and on envelopes not yet appended. */
  integrity: Schema.optional(Integrity)
}).annotate({ identifier: "EventEnvelope" })
export type EventEnvelope = typeof EventEnvelope.Type
