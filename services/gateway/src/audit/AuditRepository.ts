import { SqlClient } from "effect/sql"
import type { AuditEvent } from "@synth/contracts"
import { Context, Effect, Layer, Option, Schema, Stream } from "effect"
import { rowsOf } from "../readModelRows.ts"

/** What narrows the feed; every member is optional and they combine with AND. */
export interface AuditFilter {
  readonly aggregateId?: string | undefined
  readonly types?: ReadonlyArray<string> | undefined
  readonly actor?: string | undefined
  /** Inclusive, compared with occurred_at. */
  readonly since?: string | undefined
  /** Exclusive. */
  readonly until?: string | undefined
  /** Feed positions, both inclusive. */
  readonly fromPosition?: number | undefined
  readonly toPosition?: number | undefined
}

export interface AuditPage {
  readonly items: ReadonlyArray<AuditEvent>
  /** The last position of this page when more events match. */
  readonly next: Option.Option<number>
}

/** bigint columns arrive as decimal strings (libs/sql's int8 codec); an integer is read as one too. */
const Int8 = Schema.Union([Schema.Int, Schema.NumberFromString.check(Schema.isInt())])

const AuditRow = Schema.Struct({
  position: Int8,
  event_id: Schema.String,
  type: Schema.String,
  version: Schema.Int,
  aggregate_id: Schema.String,
  actor: Schema.String,
  occurred_at: Schema.String,
  correlation_id: Schema.String,
  causation_id: Schema.NullOr(Schema.String),
  payload: Schema.Unknown,
  integrity: Schema.Unknown,
  topic: Schema.String,
  log_partition: Schema.Int,
  log_offset: Int8
})
type AuditRow = typeof AuditRow.Type

const auditRows = rowsOf("audit_events", AuditRow)

// jsonb columns arrive as parsed values.
const toEvent = (row: AuditRow): AuditEvent => ({
  position: row.position,
  event_id: row.event_id,
  type: row.type,
  version: row.version,
  aggregate_id: row.aggregate_id,
  actor: row.actor,
  occurred_at: row.occurred_at,
  correlation_id: row.correlation_id,
  causation_id: row.causation_id,
  payload: row.payload,
  integrity: row.integrity ?? null,
  topic: row.topic,
  partition: row.log_partition,
  offset: row.log_offset
})

/** Rows one export query reads: the export streams batch after batch, never the whole feed at once. */
const exportBatch = 500

/** Queries on the `audit_events` read model. SQL errors are defects here (answered as internal errors, logged). */
export class AuditRepository extends Context.Service<AuditRepository>()("@synth/gateway/AuditRepository", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const matching = (filter: AuditFilter, after: number) => {
      const clauses = [sql`position > ${after}`]
      if (filter.aggregateId !== undefined) clauses.push(sql`aggregate_id = ${filter.aggregateId}`)
      if (filter.types !== undefined && filter.types.length > 0) clauses.push(sql`type IN ${sql.in(filter.types)}`)
      if (filter.actor !== undefined) clauses.push(sql`actor = ${filter.actor}`)
      if (filter.since !== undefined) clauses.push(sql`occurred_at_time >= ${filter.since}::timestamptz`)
      if (filter.until !== undefined) clauses.push(sql`occurred_at_time < ${filter.until}::timestamptz`)
      if (filter.fromPosition !== undefined) clauses.push(sql`position >= ${filter.fromPosition}`)
      if (filter.toPosition !== undefined) clauses.push(sql`position <= ${filter.toPosition}`)
      return sql.and(clauses)
    }

    const select = (filter: AuditFilter, after: number, limit: number) =>
      sql`
        SELECT position, event_id, type, version, aggregate_id, actor, occurred_at, correlation_id, causation_id,
          payload, integrity, topic, log_partition, log_offset
        FROM audit_events WHERE ${matching(filter, after)}
        ORDER BY position LIMIT ${limit}`.pipe(Effect.flatMap(auditRows.all), Effect.map((rows) => rows.map(toEvent)))

    /** One page, oldest first, of the events after feed position `after` (0: from the start). */
    const page = Effect.fn("AuditRepository.page")(function* (filter: AuditFilter, after: number, limit: number) {
      const rows = yield* select(filter, after, limit + 1)
      const items = rows.slice(0, limit)
      const last = items.at(-1)
      return {
        items,
        next: rows.length > limit && last !== undefined ? Option.some(last.position) : Option.none()
      } satisfies AuditPage
    }, Effect.orDie)

    /** Every matching event after `after`, at most `limit` when given, read in batches as the stream is pulled. */
    const stream = (filter: AuditFilter, after: number, limit: number | undefined): Stream.Stream<AuditEvent> => {
      const events = Stream.paginate(after, (from) =>
        Effect.map(select(filter, from, exportBatch), (batch) => {
          const last = batch.at(-1)
          const next = batch.length === exportBatch && last !== undefined ? Option.some(last.position) : Option.none()
          return [batch, next] as const
        })
      ).pipe(Stream.orDie)
      return limit === undefined ? events : Stream.take(events, limit)
    }

    return { page, stream } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
