import type { EventEnvelope } from "@synth/contracts"
import type { Effect } from "effect"
import type { NonEmptyReadonlyArray } from "effect/Array"
import type { EventLogError, Position } from "../EventLog.ts"

/** A record to store: the envelope already validated and serialized, the partition already chosen from its key. */
export interface EncodedRecord {
  readonly topic: string
  readonly partition: number
  readonly eventId: string
  readonly key: string
  readonly type: string
  readonly version: number
  /** The encoded envelope, for a store that seals it before storing. */
  readonly encoded: typeof EventEnvelope.Encoded
  /** The encoded envelope as JSON, exactly as a store that does not seal stores it. */
  readonly json: string
}

/** A stored record as the storage hands it back; the envelope is decoded (and checked) by the caller. */
export interface StoredRow extends Position {
  readonly key: string
  readonly envelope: unknown
  readonly appendedAt: string
}

/**
 * What an adapter must provide so that `fromStore` can build the whole port on it: the few operations that touch
 * storage. Following, consumer groups and envelope validation are the same for every such adapter.
 */
export interface LogStore {
  readonly partitionCount: number
  /** Atomic for the whole call; an event whose eventId is stored already keeps (and returns) its position. */
  readonly append: (records: NonEmptyReadonlyArray<EncodedRecord>) => Effect.Effect<ReadonlyArray<Position>, EventLogError>
  readonly endOffset: (topic: string, partition: number) => Effect.Effect<number, EventLogError>
  /** Up to `limit` rows from `fromOffset` on, in offset order. */
  readonly readBatch: (
    topic: string,
    partition: number,
    fromOffset: number,
    limit: number
  ) => Effect.Effect<ReadonlyArray<StoredRow>, EventLogError>
  readonly committedOffset: (group: string, topic: string, partition: number) => Effect.Effect<number, EventLogError>
  readonly commit: (
    group: string,
    topic: string,
    partition: number,
    nextOffset: number
  ) => Effect.Effect<void, EventLogError>
}
