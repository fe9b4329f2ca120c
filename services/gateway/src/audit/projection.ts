import { SqlClient } from "effect/sql"
import type { DomainEvent } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { Effect } from "effect"

/** Payload members that are credentials, not facts: an auditor sees that they were set, never their value. */
const credentialMembers = new Set(["passwordHash"])

export const redactedValue = "[redacted]"

/** The audit feed's projection: its cursors are keyed by this name. */
export const auditProjectionName = "audit"

const withoutCredentials = (payload: unknown): unknown => {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return payload
  return Object.fromEntries(
    Object.entries(payload).map(([name, value]) => [name, credentialMembers.has(name) ? redactedValue : value])
  )
}

/**
 * Serialises the feed: an advisory lock held until commit makes positions commit in the order they were drawn, so
 * a reader paging by position never passes a row that a slower transaction commits later with a smaller position
 * (the projection follows every topic and partition concurrently). The key is this read model's own number.
 */
const auditFeedLock = 7_001_007

/**
 * Appends every event, of every topic, to `audit_events` with its envelope and log position. Idempotent: a
 * redelivered event (same event id) changes nothing. The optional `integrity` seal of an envelope is kept as it came.
 * `user.forgotten` also hides the clear email of that user's version-1 registration.
 */
export const applyAuditEvent = (event: DomainEvent, meta: StoredEvent) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const envelope = meta.envelope
    const integrity = "integrity" in envelope && envelope.integrity !== undefined ? envelope.integrity : null
    yield* sql`SELECT pg_advisory_xact_lock(${auditFeedLock})`
    yield* sql`
      INSERT INTO audit_events (
        event_id, type, version, aggregate_id, actor, occurred_at, occurred_at_time, correlation_id, causation_id,
        payload, integrity, topic, log_partition, log_offset
      ) VALUES (
        ${envelope.eventId}, ${envelope.type}, ${envelope.version}, ${envelope.aggregateId}, ${envelope.actor},
        ${envelope.occurredAt}, ${envelope.occurredAt}::timestamptz, ${envelope.correlationId}, ${envelope.causationId},
        ${JSON.stringify(withoutCredentials(envelope.payload))}::jsonb, ${integrity === null ? null : JSON.stringify(integrity)}::jsonb,
        ${meta.topic}, ${meta.partition}, ${meta.offset}
      )
      ON CONFLICT (event_id) DO NOTHING`
 
    if (event.type === "user.forgotten") yield* forgetLegacyEmail(event.payload.userId)
  })

export const forgottenValue = "[forgotten]"

/**
 * A registration logged before personal data was sealed (`user.registered` v1) holds the email in clear, in the
 * log and so in this feed; the log cannot change without breaking its seals, but the feed can stop showing it once
 * the user is forgotten. Sealed emails (v2) are left as they are: with the key gone they read as nothing already.
 */
const forgetLegacyEmail = (userId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`
    UPDATE audit_events SET payload = jsonb_set(payload, '{email}', ${JSON.stringify(forgottenValue)}::jsonb)
    WHERE aggregate_id = ${userId} AND type = 'user.registered' AND jsonb_typeof(payload -> 'email') = 'string'`)
