import { type SqlClient } from "effect/sql"
import type { EventLog, EventLogError, StoredEvent } from "@synth/eventlog"
import { Effect, Stream } from "effect"
import { applyBatch } from "./applyBatch.ts"
import type { CursorKey, Cursors } from "./cursors.ts"
import type { ProjectionFailed } from "./errors.ts"
import type { Progress } from "./progress.ts"
import type { AnyProjection } from "./Projection.ts"

export interface DrainOptions {
  readonly projection: AnyProjection
  readonly key: CursorKey
  /** Stop before this offset; without it, follow the log forever. */
  readonly until?: number | undefined
  /** Called after each committed batch with the number of events it applied. */
  readonly onBatch?: ((applied: number) => Effect.Effect<void>) | undefined
  /** Waited for before each batch is applied (the projections this one comes after). */
  readonly beforeBatch?: ((events: ReadonlyArray<StoredEvent>) => Effect.Effect<void, EventLogError>) | undefined
}

/**
 * Applies one partition of a topic to one projection from its stored cursor on, a batch (a chunk of the log's
 * stream) per transaction, and tells `progress` after each commit. When a rebuild moved the cursor back under it,
 * it starts over from the stored cursor.
 */
export const makeDrainPartition = (
  sql: SqlClient.SqlClient,
  log: EventLog["Service"],
  cursors: Cursors,
  progress: Progress
) => {
  const drain = ({ beforeBatch = () => Effect.void, key, onBatch = () => Effect.void, projection, until }: DrainOptions) =>
    Effect.gen(function*() {
      const start = yield* Effect.orDie(cursors.get(key))
      yield* progress.committed(key, start)
      const { partition, topic } = key
      const events = log.read({ topic, partition, fromOffset: start, follow: until === undefined })
      yield* (until === undefined ? events : Stream.takeWhile(events, (event) => event.offset < until)).pipe(
        Stream.chunks,
        Stream.runFoldEffect(() => start, (expectedOffset, batch) =>
          Effect.andThen(beforeBatch(batch), applyBatch(sql, cursors, projection, key, expectedOffset, batch)).pipe(
            Effect.tap(({ nextOffset }) => progress.committed(key, nextOffset)),
            Effect.tap(({ applied }) => onBatch(applied)),
            Effect.map(({ nextOffset }) => nextOffset)
          ))
      )
    })

  const drainFromStoredCursor = (options: DrainOptions): Effect.Effect<void, EventLogError | ProjectionFailed> =>
    Effect.catchTag(drain(options), "CursorMovedBack", () => drainFromStoredCursor(options))

  return drainFromStoredCursor
}

export type DrainPartition = ReturnType<typeof makeDrainPartition>
