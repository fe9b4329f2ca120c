import { SqlClient } from "effect/sql"
import { decodeDomainEvent, type DomainEvent } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { Array, Data, Effect, Option } from "effect"
import type { CursorKey, Cursors } from "./cursors.ts"
import { ProjectionFailed } from "./errors.ts"
import type { AnyProjection, Projected } from "./Projection.ts"

/**
 * The stored cursor is behind where this runner stands: a rebuild reset it. The runner starts over from the
 * stored cursor instead of applying from where it stood, which would skip everything in between.
 */
export class CursorMovedBack extends Data.TaggedError("CursorMovedBack")<{ readonly storedOffset: number }> {}

export interface BatchApplied {
  readonly nextOffset: number
  /** Events at or past the stored cursor: those this batch projected (or skipped as unknown types). */
  readonly applied: number
}

// An unknown type is a newer producer's event: skip it (the cursor moves on) rather than stop the read model.
// A known type whose payload does not decode means the log holds what its own schema forbids: a defect.
const decode = (event: StoredEvent): Effect.Effect<Option.Option<DomainEvent>> =>
  decodeDomainEvent(event.envelope).pipe(
    Effect.map(Option.some),
    Effect.catchTag("UnknownEventType", (unknown) =>
      Effect.as(
        Effect.logWarning(`Skipping ${unknown.type}@${unknown.version}: not in the event catalog`).pipe(
          Effect.annotateLogs({ topic: event.topic, partition: event.partition, offset: event.offset })
        ),
        Option.none()
      )),
    Effect.orDie
  )

/**
 * Applies one partition's events (in offset order, as one batch of the projection) and moves the cursor past them,
 * in one transaction. Events below the stored cursor were applied before and are skipped, which makes redelivery
 * change nothing.
 */
export const applyBatch = (
  sql: SqlClient.SqlClient,
  cursors: Cursors,
  projection: AnyProjection,
  key: CursorKey,
  expectedOffset: number,
  events: ReadonlyArray<StoredEvent>
): Effect.Effect<BatchApplied, CursorMovedBack | ProjectionFailed> =>
  Effect.gen(function*() {
    const storedOffset = yield* cursors.lock(key)
    if (storedOffset < expectedOffset) return yield* new CursorMovedBack({ storedOffset })
    const fresh = events.filter((event) => event.offset >= storedOffset)
    const last = fresh.at(-1)
    if (last === undefined) return { nextOffset: storedOffset, applied: 0 }
    const decoded = yield* Effect.forEach(fresh, (meta) =>
      Effect.map(decode(meta), Option.map((event): Projected => ({ event, meta }))))
    yield* projection.applyBatch(Array.getSomes(decoded)).pipe(
      Effect.mapError((cause) => new ProjectionFailed({ ...key, cause }))
    )
    yield* cursors.advance(key, last.offset + 1)
    return { nextOffset: last.offset + 1, applied: fresh.length }
  }).pipe(
    sql.withTransaction,
    Effect.catchTag("SqlError", (cause) => Effect.fail(new ProjectionFailed({ ...key, cause }))),
    Effect.provideService(SqlClient.SqlClient, sql),
    Effect.withSpan("ProjectorRuntime.applyBatch", { attributes: { ...key, events: events.length } })
  )
