import { type Consumer, IS_CONTROL, type RecordsBatch } from "@platformatic/kafka"
import { Data, Effect, Schedule } from "effect"
import { isRetriable } from "./client.ts"
import { kafkaFailure } from "./topics.ts"

/** A record as the log stored it, with what the adapter needs of it and nothing of the client's types. */
export interface FetchedRecord {
  readonly offset: number
  readonly key: string | undefined
  readonly text: string
  /** When the broker appended it, in epoch milliseconds (the adapter's topics use log-append time). */
  readonly timestamp: number
  /** The leader epoch it was written in: a commit carries it so the broker can tell a stale one (KIP-320). */
  readonly leaderEpoch: number
}

/** Where to fetch from: a partition (of a topic as the broker names it) and the next offset wanted there. */
export interface FetchPosition {
  readonly topic: string
  readonly partition: number
  readonly offset: number
}

export interface FetchSettings {
  /** How long the broker holds a fetch that finds nothing new (a follower's long poll). */
  readonly maxWaitTime: number
  readonly maxBytesPerPartition: number
}

/** A partition with no leader yet: a topic created a moment ago, or a broker that just went away. */
class NoLeader extends Data.TaggedError("NoLeader")<{ readonly topic: string; readonly partition: number }> {
  override get message() {
    return `${this.topic}/${this.partition} has no leader yet`
  }
}

/** The timestamp-type bit of a batch's attributes: set when the broker stamped the batch with its append time. */
const logAppendTime = 0b1000

const recordsOf = (batches: ReadonlyArray<RecordsBatch>): Array<FetchedRecord> =>
  batches
    .filter((batch) => (batch.attributes & IS_CONTROL) === 0)
    .flatMap((batch) =>
      batch.records.map((record) => ({
        offset: Number(batch.firstOffset) + record.offsetDelta,
        key: record.key?.toString("utf8"),
        text: record.value?.toString("utf8") ?? "",
        // With log-append time the broker stamps the batch, not each record: the records keep the producer's clock.
        timestamp: Number(
          (batch.attributes & logAppendTime) !== 0 ? batch.maxTimestamp : batch.firstTimestamp + record.timestampDelta
        ),
        leaderEpoch: batch.partitionLeaderEpoch
      }))
    )

export const positionKey = (topic: string, partition: number) => `${partition}:${topic}`

/** What one fetch returned for a partition: its records from the position on, and where the next fetch starts. */
export interface FetchedPartition {
  readonly records: ReadonlyArray<FetchedRecord>
  /** Past the last offset the fetch covered, records or not (a transaction's markers take offsets too). */
  readonly next: number
}

/**
 * One fetch of every position, each from its partition's leader: by `positionKey`, what it returned for each
 * partition that had something. A fetch returns whole batches, so records before a position are dropped here. Fails
 * with the client's error when a leader is unknown or a broker refuses, so the caller can retry those that
 * `isRetriable` allows.
 */
export const fetchRecords = (
  consumer: Consumer,
  positions: ReadonlyArray<FetchPosition>,
  settings: FetchSettings
): Effect.Effect<ReadonlyMap<string, FetchedPartition>, unknown> =>
  Effect.gen(function*() {
    const metadata = yield* Effect.tryPromise(() =>
      consumer.metadata({ topics: [...new Set(positions.map((position) => position.topic))] })
    ).pipe(Effect.mapError((failure) => failure.cause))
    const byLeader = new Map<number, Array<FetchPosition>>()
    for (const position of positions) {
      const leader = metadata.topics.get(position.topic)?.partitions[position.partition]?.leader ?? -1
      if (leader < 0) return yield* new NoLeader({ topic: position.topic, partition: position.partition })
      byLeader.set(leader, [...(byLeader.get(leader) ?? []), position])
    }
    const answers = yield* Effect.forEach([...byLeader], ([node, wanted]) =>
      Effect.tryPromise(() =>
        consumer.fetch({
          node,
          minBytes: 1,
          maxBytes: settings.maxBytesPerPartition * wanted.length,
          maxWaitTime: settings.maxWaitTime,
          topics: [...new Set(wanted.map((position) => position.topic))].map((topic) => ({
            topicId: metadata.topics.get(topic)!.id,
            partitions: wanted.filter((position) => position.topic === topic).map((position) => ({
              partition: position.partition,
              fetchOffset: BigInt(position.offset),
              partitionMaxBytes: settings.maxBytesPerPartition,
              currentLeaderEpoch: -1,
              lastFetchedEpoch: -1
            }))
          }))
        })
      ).pipe(Effect.mapError((failure) => failure.cause)), { concurrency: "unbounded" })
    const topicNames = new Map([...metadata.topics].map(([name, topic]) => [topic.id, name]))
    const fetched = new Map<string, FetchedPartition>()
    for (const answer of answers) {
      for (const topicAnswer of answer.responses) {
        const topic = topicNames.get(topicAnswer.topicId) ?? topicAnswer.topicId
        for (const partitionAnswer of topicAnswer.partitions) {
          const key = positionKey(topic, partitionAnswer.partitionIndex)
          const from = positions.find((position) => positionKey(position.topic, position.partition) === key)
          const batches = partitionAnswer.records ?? []
          const last = batches.at(-1)
          if (from === undefined || last === undefined) continue
          fetched.set(key, {
            records: recordsOf(batches).filter((record) => record.offset >= from.offset),
            next: Math.max(from.offset, Number(last.firstOffset) + last.lastOffsetDelta + 1)
          })
        }
      }
    }
    return fetched
  })

// Exponential from 100 ms, never more than 2 seconds apart (the shorter of the two delays), for a minute.
const patience = Schedule.min([Schedule.exponential("100 millis", 2), Schedule.spaced("2 seconds")]).pipe(
  Schedule.upTo({ duration: "1 minute" })
)

/** A fetch failure a moment's wait may cure (a leader moving, a broker restarting), retried for up to a minute. */
export const retryTransientFetch = (action: string) => <A, R>(fetch: Effect.Effect<A, unknown, R>) =>
  fetch.pipe(
    Effect.retry({ schedule: patience, while: (error) => error instanceof NoLeader || isRetriable(error) }),
    Effect.mapError(kafkaFailure(action))
  )
