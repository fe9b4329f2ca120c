import { Effect } from "effect"
import type { Position } from "../EventLog.ts"
import { type ChainHead, producerOf, sealEnvelope } from "../integrity/seal.ts"
import type { Database, Query } from "./database.ts"
import type { EncodedRecord, LogStore, StoredRow } from "./store.ts"

/**
 * `envelope` is `json`, not `jsonb`: it keeps the text exactly as appended, and jsonb rejects a `\u0000` in any
 * string, which would make a valid envelope unappendable here while other adapters accept it.
 */
export const schema: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS events (
    topic text NOT NULL,
    partition integer NOT NULL,
    "offset" bigint NOT NULL,
    key text NOT NULL,
    event_id uuid NOT NULL UNIQUE,
    type text NOT NULL,
    version integer NOT NULL,
    envelope json NOT NULL,
    appended_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (topic, partition, "offset")
  )`,
  `CREATE TABLE IF NOT EXISTS consumer_offsets (
    "group" text NOT NULL,
    topic text NOT NULL,
    partition integer NOT NULL,
    next_offset bigint NOT NULL,
    PRIMARY KEY ("group", topic, partition)
  )`,
  `CREATE TABLE IF NOT EXISTS chain_heads (
    chain text PRIMARY KEY,
    sequence bigint NOT NULL,
    hash text NOT NULL
  )`
]

interface PositionRow {
  readonly event_id: string
  readonly topic: string
  readonly partition: number
  readonly offset: number
}

interface EventRow {
  readonly topic: string
  readonly partition: number
  readonly offset: number
  readonly key: string
  readonly envelope: unknown
  readonly appended_at: Date
}

const partitionId = (topic: string, partition: number) => JSON.stringify([topic, partition])

const endOffsetIn = (query: Query, topic: string, partition: number) =>
  query<{ readonly next: number }>(
    `SELECT coalesce(max("offset") + 1, 0) AS next FROM events WHERE topic = $1 AND partition = $2`,
    [topic, partition]
  ).pipe(Effect.map((rows) => Number(rows[0]?.next ?? 0)))

const headsIn = (query: Query, chains: ReadonlyArray<string>) =>
  query<{ readonly chain: string; readonly sequence: number; readonly hash: string }>(
    `SELECT chain, sequence, hash FROM chain_heads WHERE chain = ANY($1::text[])`,
    [chains]
  ).pipe(Effect.map((rows) =>
    new Map(rows.map((row): [string, ChainHead] => [row.chain, { sequence: Number(row.sequence), hash: row.hash }]))
  ))

/**
 * Seals fresh records as the next links of their producers' chains and moves the heads, in the append's
 * transaction: a duplicate never reaches here, and a rolled-back append consumes no sequence number.
 */
const sealIn = (query: Query, fresh: ReadonlyArray<EncodedRecord>) =>
  Effect.gen(function*() {
    const heads = yield* headsIn(query, [...new Set(fresh.map((record) => producerOf(record.type)))])
    const sealed = fresh.map((record) => {
      const chain = producerOf(record.type)
      const envelope = sealEnvelope(record.encoded, chain, heads.get(chain))
      heads.set(chain, { sequence: envelope.integrity.sequence, hash: envelope.integrity.hash })
      return JSON.stringify(envelope)
    })
    yield* query(
      `INSERT INTO chain_heads (chain, sequence, hash)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[])
       ON CONFLICT (chain) DO UPDATE SET sequence = excluded.sequence, hash = excluded.hash`,
      [[...heads.keys()], [...heads.values()].map((head) => head.sequence), [...heads.values()].map((head) => head.hash)]
    )
    return sealed
  })

/**
 * Offsets are assigned here, inside the transaction, from the partition's current end: transactions are serialized,
 * so no two appends can take the same offset and a rolled-back append leaves no gap.
 */
const appendIn = (query: Query, records: ReadonlyArray<EncodedRecord>) =>
  Effect.gen(function*() {
    const stored = yield* query<PositionRow>(
      `SELECT event_id::text AS event_id, topic, partition, "offset" FROM events WHERE event_id = ANY($1::uuid[])`,
      [records.map((record) => record.eventId)]
    )
    const positionsById = new Map(
      stored.map((row): [string, Position] => [
        row.event_id,
        { topic: row.topic, partition: row.partition, offset: Number(row.offset) }
      ])
    )
    const nextOffsets = new Map<string, number>()
    const fresh: Array<EncodedRecord & { readonly offset: number }> = []
    const positions: Array<Position> = []
    for (const record of records) {
      const eventId = record.eventId.toLowerCase()
      const existing = positionsById.get(eventId)
      if (existing !== undefined) {
        positions.push(existing)
        continue
      }
      const id = partitionId(record.topic, record.partition)
      const offset = nextOffsets.get(id) ?? (yield* endOffsetIn(query, record.topic, record.partition))
      nextOffsets.set(id, offset + 1)
      const position = { topic: record.topic, partition: record.partition, offset }
      positionsById.set(eventId, position)
      positions.push(position)
      fresh.push({ ...record, offset })
    }
    if (fresh.length > 0) {
      const sealed = yield* sealIn(query, fresh)
      yield* query(
        `INSERT INTO events (topic, partition, "offset", key, event_id, type, version, envelope)
         SELECT * FROM unnest($1::text[], $2::integer[], $3::bigint[], $4::text[], $5::uuid[], $6::text[],
                              $7::integer[], $8::json[])`,
        [
          fresh.map((record) => record.topic),
          fresh.map((record) => record.partition),
          fresh.map((record) => record.offset),
          fresh.map((record) => record.key),
          fresh.map((record) => record.eventId),
          fresh.map((record) => record.type),
          fresh.map((record) => record.version),
          sealed
        ]
      )
    }
    return positions
  })

/** Where a raw walk of the log stands: the last record it read. */
export interface RawCursor {
  readonly topic: string
  readonly partition: number
  readonly offset: number
}

/** Every stored record's text exactly as stored (not parsed), for `synth events verify`. */
export const readRawBatch = (database: Database, after: RawCursor, limit: number) =>
  database.query<{ readonly topic: string; readonly partition: number; readonly offset: number; readonly text: string }>(
    `SELECT topic, partition, "offset", envelope::text AS text FROM events
     WHERE (topic, partition, "offset") > ($1, $2, $3) ORDER BY topic, partition, "offset" LIMIT $4`,
    [after.topic, after.partition, after.offset, limit]
  ).pipe(Effect.map((rows) => rows.map((row) => ({ ...row, offset: Number(row.offset) }))))

/** The log in three tables of a PGlite database; one partition per topic. */
export const makePgliteStore = (database: Database): LogStore => ({
  partitionCount: 1,
  append: (records) => database.transaction((query) => appendIn(query, records)),
  endOffset: (topic, partition) => endOffsetIn(database.query, topic, partition),
  readBatch: (topic, partition, fromOffset, limit) =>
    database.query<EventRow>(
      `SELECT topic, partition, "offset", key, envelope, appended_at FROM events
       WHERE topic = $1 AND partition = $2 AND "offset" >= $3 ORDER BY "offset" LIMIT $4`,
      [topic, partition, fromOffset, limit]
    ).pipe(Effect.map((rows) =>
      rows.map((row): StoredRow => ({
        topic: row.topic,
        partition: row.partition,
        offset: Number(row.offset),
        key: row.key,
        envelope: row.envelope,
        appendedAt: row.appended_at.toISOString()
      }))
    )),
  committedOffset: (group, topic, partition) =>
    database.query<{ readonly next_offset: number }>(
      `SELECT next_offset FROM consumer_offsets WHERE "group" = $1 AND topic = $2 AND partition = $3`,
      [group, topic, partition]
    ).pipe(Effect.map((rows) => Number(rows[0]?.next_offset ?? 0))),
  commit: (group, topic, partition, nextOffset) =>
    database.query(
      `INSERT INTO consumer_offsets ("group", topic, partition, next_offset) VALUES ($1, $2, $3, $4)
       ON CONFLICT ("group", topic, partition) DO UPDATE SET next_offset = excluded.next_offset`,
      [group, topic, partition, nextOffset]
    ).pipe(Effect.asVoid)
})
