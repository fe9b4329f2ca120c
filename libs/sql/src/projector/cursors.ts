import { type SqlClient } from "effect/sql"
import { Effect } from "effect"

/** One cursor: a projection's place in one partition of one topic. A plain object, so it keys a HashMap by value. */
export interface CursorKey {
  readonly projection: string
  readonly topic: string
  readonly partition: number
}

export const cursorKey = (projection: string, topic: string, partition: number): CursorKey =>
  ({ projection, topic, partition })

// bigint comes back as a string from node-postgres; offsets stay far below 2^53.
interface CursorRow {
  readonly projection: string
  readonly topic: string
  readonly partition: number
  readonly next_offset: string
}

/** The `projection_cursors` table (created by the `projector` migrations). */
export const makeCursors = (sql: SqlClient.SqlClient) => ({
  all: Effect.map(
    sql<CursorRow>`SELECT projection, topic, partition, next_offset FROM projection_cursors`,
    (rows) => rows.map((row) => [cursorKey(row.projection, row.topic, row.partition), Number(row.next_offset)] as const)
  ),

  get: (key: CursorKey) =>
    Effect.map(
      sql<Pick<CursorRow, "next_offset">>`SELECT next_offset FROM projection_cursors
        WHERE projection = ${key.projection} AND topic = ${key.topic} AND partition = ${key.partition}`,
      (rows) => Number(rows[0]?.next_offset ?? 0)
    ),

  /**
   * Inside a transaction: the stored cursor, locked until commit, so concurrent runners of one projection (replicas,
   * a rebuild) take turns per partition. The row is created first because a missing row cannot be locked.
   */
  lock: (key: CursorKey) =>
    Effect.andThen(
      sql`INSERT INTO projection_cursors (projection, topic, partition, next_offset)
        VALUES (${key.projection}, ${key.topic}, ${key.partition}, 0)
        ON CONFLICT (projection, topic, partition) DO NOTHING`,
      Effect.map(
        sql<Pick<CursorRow, "next_offset">>`SELECT next_offset FROM projection_cursors
          WHERE projection = ${key.projection} AND topic = ${key.topic} AND partition = ${key.partition}
          FOR UPDATE`,
        (rows) => Number(rows[0]?.next_offset ?? 0)
      )
    ),

  advance: (key: CursorKey, nextOffset: number) =>
    sql`UPDATE projection_cursors SET next_offset = ${nextOffset}, updated_at = now()
      WHERE projection = ${key.projection} AND topic = ${key.topic} AND partition = ${key.partition}`,

  /**
   * `synth replay --from`: the cursor back to `offset` if it is past it, never forward. A runner holding the row
   * (a batch in progress) is waited for; its next batch finds the cursor moved back and starts over from it.
   */
  rewind: (key: CursorKey, offset: number) =>
    sql`UPDATE projection_cursors SET next_offset = ${offset}, updated_at = now()
      WHERE projection = ${key.projection} AND topic = ${key.topic} AND partition = ${key.partition}
        AND next_offset > ${offset}`,

  /**
   * Inside a rebuild's transaction: every cursor of the projection back to 0. The upserts wait for a runner's
   * uncommitted first batch on those partitions, so the truncate that follows cannot miss its rows.
   */
  reset: (projection: string, keys: ReadonlyArray<CursorKey>) =>
    Effect.andThen(
      sql`UPDATE projection_cursors SET next_offset = 0, updated_at = now() WHERE projection = ${projection}`,
      Effect.forEach(
        keys,
        (key) =>
          sql`INSERT INTO projection_cursors (projection, topic, partition, next_offset)
            VALUES (${key.projection}, ${key.topic}, ${key.partition}, 0)
            ON CONFLICT (projection, topic, partition) DO UPDATE SET next_offset = 0, updated_at = now()`,
        { discard: true }
      )
    )
})

export type Cursors = ReturnType<typeof makeCursors>
