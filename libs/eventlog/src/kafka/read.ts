import { Consumer } from "@platformatic/kafka"
import { Effect, Option, Stream } from "effect"
import { EventLogError, type StoredEvent } from "../EventLog.ts"
import type { RawRecord } from "../integrity/verifyChains.ts"
import { type ClientSettings, clientOptions } from "./client.ts"
import { decodeMessage } from "./codec.ts"
import { type FetchedRecord, fetchRecords, positionKey, retryTransientFetch } from "./fetch.ts"
import { logClientEvents } from "./logging.ts"
import type { Topics } from "./topics.ts"

export interface ReadOptions {
  readonly topic: string
  readonly partition: number
  readonly fromOffset: number
  readonly follow: boolean
}

/** Fetched batches a reader holds ahead of its stream, each at most `maxBytesPerPartition`. */
const bufferedFetches = 8
const maxBytesPerPartition = 1024 * 1024
/** Bounds how long a follower's fetch waits for news, and so how long closing a reader waits for it. */
const followWait = 500

const invalid = (reason: string) => Stream.fail(new EventLogError({ reason }))

type Decode<A> = (topic: string, partition: number, record: FetchedRecord) => Effect.Effect<A, EventLogError>

/** The value as stored, undecoded: what `synth events verify` checks, tampered bytes included. */
const rawMessage: Decode<RawRecord> = (topic, partition, record) =>
  Effect.succeed({ topic, partition, offset: record.offset, text: record.text })

/**
 * A reader fetches its one partition itself, from the partition's leader, on a client of its own: it belongs to no
 * consumer group, so it neither waits for a group to form nor commits anything.
 */
const makeReadWith = <A extends { readonly offset: number }>(decode: Decode<A>) =>
(client: ClientSettings, topics: Topics) =>
(options: ReadOptions): Stream.Stream<A, EventLogError> => {
  const { follow, fromOffset, partition, topic } = options
  if (!Number.isSafeInteger(fromOffset) || fromOffset < 0) {
    return invalid(`fromOffset must be a non-negative integer, got ${fromOffset}`)
  }
  return Stream.unwrap(Effect.gen(function*() {
    const count = yield* topics.partitions(topic)
    if (!Number.isInteger(partition) || partition < 0 || partition >= count) {
      return invalid(`Partition ${partition} does not exist: topic ${topic} has partitions 0..${count - 1}`)
    }
    const range = (yield* topics.offsetRanges(topic)).find((candidate) => candidate.partition === partition)
    if (range === undefined) return invalid(`Kafka reports no offsets for ${topic}/${partition}`)
    if (fromOffset < range.low) {
      return invalid(`${topic}/${partition} starts at offset ${range.low} now: the events before it were deleted`)
    }
    const end = follow ? Number.POSITIVE_INFINITY : range.high
    if (fromOffset >= end) return Stream.empty

    const physicalTopic = topics.physical(topic)
    const consumer = yield* Effect.acquireRelease(
      Effect.sync(() =>
        new Consumer({ ...clientOptions(client), groupId: topics.group(`${client.clientId}.reader`) })
      ),
      (consumer) => Effect.promise(() => consumer.close(true).catch(() => undefined))
    )
    yield* logClientEvents(consumer)

    /**
     * The records from `next` on (up to `end`), and where the next fetch starts. A fetch that finds nothing new is
     * repeated rather than emitted: each chunk is a batch to its reader (the projector applies one per transaction).
     */
    const fetchFrom = (next: number): Effect.Effect<readonly [ReadonlyArray<A>, Option.Option<number>], EventLogError> =>
      fetchRecords(consumer, [{ topic: physicalTopic, partition, offset: next }], {
        maxWaitTime: followWait,
        maxBytesPerPartition
      }).pipe(
        retryTransientFetch(`read ${physicalTopic}/${partition} from offset ${next}`),
        Effect.flatMap((fetched) => {
          const answer = fetched.get(positionKey(physicalTopic, partition))
          if (answer === undefined || answer.next <= next) return fetchFrom(next)
          const after = Math.min(answer.next, end)
          return Effect.forEach(
            answer.records.filter((record) => record.offset < end),
            (record) => decode(topic, partition, record)
          ).pipe(
            Effect.flatMap((decoded) =>
              decoded.length === 0 && after < end
                ? fetchFrom(after)
                : Effect.succeed([decoded, after >= end ? Option.none() : Option.some(after)] as const)
            )
          )
        })
      )

        // bufferArray keeps each fetch's records together (v4's Stream.buffer would regroup them element by element).
    return Stream.paginate(fromOffset, fetchFrom).pipe(Stream.bufferArray({ capacity: bufferedFetches }))
  }))
}

export const makeRead = makeReadWith<StoredEvent>(decodeMessage)

export const makeReadRaw = makeReadWith(rawMessage)
