import { SqlClient } from "effect/sql"
import { Effect } from "effect"

/**
 * The audit read model: one row per event of every topic, in the order the audit projection applied them.
 * `position` is the feed position (the paging cursor and the export's position range); it only grows, and a rebuild
 * does not reuse positions (TRUNCATE keeps the identity's counter), so a client's old cursor never skips a rebuilt row.
 * `occurred_at` keeps the event's ISO string for byte-identical answers; `occurred_at_time` is for range filters.
 */
export const auditMigrations = {
  "0007_audit_events": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      CREATE TABLE audit_events (
        position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        event_id text NOT NULL UNIQUE,
        type text NOT NULL,
        version integer NOT NULL,
        aggregate_id text NOT NULL,
        actor text NOT NULL,
        occurred_at text NOT NULL,
        occurred_at_time timestamptz NOT NULL,
        correlation_id text NOT NULL,
        causation_id text,
        payload jsonb NOT NULL,
        integrity jsonb,
        topic text NOT NULL,
        log_partition integer NOT NULL,
        log_offset bigint NOT NULL
      )`
    yield* sql`CREATE INDEX audit_events_aggregate ON audit_events (aggregate_id, position)`
    yield* sql`CREATE INDEX audit_events_type ON audit_events (type, position)`
    yield* sql`CREATE INDEX audit_events_actor ON audit_events (actor, position)`
    yield* sql`CREATE INDEX audit_events_occurred ON audit_events (occurred_at_time, position)`
  })
}
