import { SqlClient } from "effect/sql"
import type { Projected } from "@synth/sql"
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

/** The events up to and including each `user.forgotten`, then the rest: the feed hides an email after its row. */
const upToEachForgetting = (events: ReadonlyArray<Projected>): ReadonlyArray<ReadonlyArray<Projected>> => {
  const segments: Array<Array<Projected>> = [[]]
  for (const projected of events) {
    segments.at(-1)!.push(projected)
    if (projected.event.type === "user.forgotten") segments.push([])
  }
  return segments.filter((segment) => segment.length > 0)
}

const rowOf = ({ meta }: Projected, seq: number) => {
  const envelope = meta.envelope
  const integrity = "integrity" in envelope && envelope.integrity !== undefined ? envelope.integrity : null
  return {
    seq,
    event_id: envelope.eventId,
    type: envelope.type,
    version: envelope.version,
    aggregate_id: envelope.aggregateId,
    actor: envelope.actor,
    occurred_at: envelope.occurredAt,
    correlation_id: envelope.correlationId,
    causation_id: envelope.causationId,
    payload: withoutCredentials(envelope.payload),
    integrity,
    topic: meta.topic,
    log_partition: meta.partition,
    log_offset: meta.offset
  }
}

/**
 * One statement for the rows; the identity numbers them in `seq` order, the order of the log. The payload and the
 * seal go in as JSON members: a decoded event's payload is an object and a seal an object or absent (SQL NULL), so
 * no JSON null needs keeping apart from NULL.
 */
const insertRows = (events: ReadonlyArray<Projected>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql`
    INSERT INTO audit_events (
      event_id, type, version, aggregate_id, actor, occurred_at, occurred_at_time, correlation_id, causation_id,
      payload, integrity, topic, log_partition, log_offset
    )
    SELECT event_id, type, version, aggregate_id, actor, occurred_at, occurred_at::timestamptz, correlation_id,
      causation_id, payload, integrity, topic, log_partition, log_offset
    FROM jsonb_to_recordset(${JSON.stringify(events.map(rowOf))}::jsonb) AS batch(
      seq integer, event_id text, type text, version integer, aggregate_id text, actor text, occurred_at text,
      correlation_id text, causation_id text, payload jsonb, integrity jsonb, topic text, log_partition integer,
      log_offset bigint
    )
    ORDER BY seq
    ON CONFLICT (event_id) DO NOTHING`)

/**
 * Appends every event, of every topic, to `audit_events` with its envelope and log position, a batch in one
 * statement (one more per `user.forgotten`). Idempotent: a redelivered event (same event id) changes nothing. The
 * optional `integrity` seal of an envelope is kept as it came. `user.forgotten` also hides the clear email of that
 * user's version-1 registration.
 */
export const applyAuditEvents = (events: ReadonlyArray<Projected>) =>
  Effect.gen(function* () {
    if (events.length === 0) return
    const sql = yield* SqlClient.SqlClient
    yield* sql`SELECT pg_advisory_xact_lock(${auditFeedLock})`
    for (const segment of upToEachForgetting(events)) {
      yield* insertRows(segment)
      const last = segment.at(-1)!.event
      if (last.type === "user.forgotten") yield* forgetLegacyEmail(last.payload.userId)
    }
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
