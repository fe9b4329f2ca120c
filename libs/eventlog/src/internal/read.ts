import { EventEnvelope } from "@synth/contracts"
import { Deferred, Effect, Option, Schema, Stream } from "effect"
import { EventLogError, type StoredEvent } from "../EventLog.ts"
import type { Changes } from "./changes.ts"
import type { LogStore, StoredRow } from "./store.ts"

/** Rows fetched per query: large enough to amortise a query, small enough to keep a replay's memory flat. */
const batchSize = 500

const decodeEnvelope = Schema.decodeUnknownEffect(EventEnvelope)

/** A stored envelope was validated on append, so failing to decode it means the storage was altered behind our back. */
const decodeRow = (row: StoredRow): Effect.Effect<StoredEvent, EventLogError> =>
  decodeEnvelope(row.envelope).pipe(
    Effect.map((envelope): StoredEvent => ({ ...row, envelope })),
    Effect.mapError((cause) =>
      new EventLogError({
        reason: `The event at ${row.topic}/${row.partition}@${row.offset} does not decode as an EventEnvelope`,
        cause
      })
    )
  )

export interface ReadOptions {
  readonly topic: string
  readonly partition: number
  readonly fromOffset: number
  readonly follow: boolean
}

export const makeRead = (store: LogStore, changes: Changes) => {
  const fetch = (topic: string, partition: number, fromOffset: number, limit: number) =>
    store.readBatch(topic, partition, fromOffset, limit).pipe(Effect.flatMap(Effect.forEach(decodeRow)))

  // The events of one batch and the offset after them; none when the batch is empty.
  const page = (events: ReadonlyArray<StoredEvent>) =>
    Option.map(
      Option.fromNullishOr(events.at(-1)),
      (last): readonly [ReadonlyArray<StoredEvent>, number] => [events, last.offset + 1]
    )

  const nothingMore = [[], Option.none()] as const

  const upTo = (topic: string, partition: number, fromOffset: number) =>
    Stream.unwrap(
      Effect.map(store.endOffset(topic, partition), (end) =>
        Stream.paginate(fromOffset, (next) =>
          next >= end
            ? Effect.succeed(nothingMore)
            : fetch(topic, partition, next, Math.min(batchSize, end - next)).pipe(
              Effect.map((events) =>
                Option.match(page(events.filter((event) => event.offset < end)), {
                  onNone: () => nothingMore,
                  onSome: ([batch, after]) => [batch, Option.some(after)] as const
                })
              )
            ))
      )
    )

  const following = (topic: string, partition: number, fromOffset: number) =>
    Stream.paginate(fromOffset, (next) =>
      Effect.gen(function*() {
        while (true) {
          const wake = yield* changes.next(topic)
          const found = page(yield* fetch(topic, partition, next, batchSize))
          if (Option.isSome(found)) return [found.value[0], Option.some(found.value[1])] as const
          yield* Deferred.await(wake)
        }
      }))

  return (options: ReadOptions): Stream.Stream<StoredEvent, EventLogError> => {
    const { topic, partition, fromOffset, follow } = options
    if (!Number.isInteger(partition) || partition < 0 || partition >= store.partitionCount) {
      return Stream.fail(
        new EventLogError({
          reason: `Partition ${partition} does not exist: topic ${topic} has partitions 0..${store.partitionCount - 1}`
        })
      )
    }
    if (!Number.isSafeInteger(fromOffset) || fromOffset < 0) {
      return Stream.fail(new EventLogError({ reason: `fromOffset must be a non-negative integer, got ${fromOffset}` }))
    }
    return follow ? following(topic, partition, fromOffset) : upTo(topic, partition, fromOffset)
  }
}
