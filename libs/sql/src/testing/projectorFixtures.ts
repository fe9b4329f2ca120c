import { SqlClient } from "effect/sql"
import { type EventEnvelope, Topics } from "@synth/contracts"
import { type AppendRecord, EventLog } from "@synth/eventlog"
import { Effect } from "effect"
import { migrationSet } from "../migrations/migrations.ts"
import { makeProjection } from "../projector/Projection.ts"

export const testMigrations = migrationSet("projector_test", {
  "0001_registrations": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE test_registered_users (user_id uuid PRIMARY KEY, email text NOT NULL, registered_at text NOT NULL)`
    yield* sql`CREATE TABLE test_registration_count (id integer PRIMARY KEY, total integer NOT NULL)`
  })
})

// Deliberately not idempotent by itself (a plain insert and an increment): only the cursor keeps redelivered
// events from counting twice, which is what the tests check.
const countRegistrations = (sql: SqlClient.SqlClient, userId: string, email: string, at: string) =>
  Effect.andThen(
    sql`INSERT INTO test_registered_users (user_id, email, registered_at) VALUES (${userId}, ${email}, ${at})`,
    sql`INSERT INTO test_registration_count (id, total) VALUES (1, 1)
      ON CONFLICT (id) DO UPDATE SET total = test_registration_count.total + 1`
  )

export const registrations = makeProjection({
  name: "test_registrations",
  topics: [Topics.user.name],
  tables: ["test_registered_users", "test_registration_count"],
  apply: (event, meta) =>
    Effect.gen(function*() {
      if (event.type !== "user.registered") return
      const sql = yield* SqlClient.SqlClient
      // The fixtures append version-1 registrations, read as version 2 with the email as a plain value.
      const email = "plain" in event.payload.email ? event.payload.email.plain : event.payload.email.ciphertext
      yield* countRegistrations(sql, event.payload.userId, email, meta.envelope.occurredAt)
    })
})

export const envelope = (type: string, aggregateId: string, payload: unknown): EventEnvelope => ({
  eventId: crypto.randomUUID() as EventEnvelope["eventId"],
  type,
  version: 1,
  aggregateId,
  occurredAt: new Date().toISOString(),
  actor: "anonymous",
  correlationId: crypto.randomUUID(),
  causationId: null,
  payload
})

export const registration = (email: string): AppendRecord => {
  const userId = crypto.randomUUID()
  return { topic: Topics.user.name, envelope: envelope("user.registered", userId, { userId, email, passwordHash: "x" }) }
}

export const append = (first: AppendRecord, ...rest: ReadonlyArray<AppendRecord>) =>
  Effect.flatMap(EventLog, (log) => log.append([first, ...rest]))

export const snapshot = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return {
    users: yield* sql`SELECT user_id, email, registered_at FROM test_registered_users ORDER BY email`,
    count: yield* sql`SELECT total FROM test_registration_count`
  }
})
