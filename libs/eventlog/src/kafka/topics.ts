import { type Admin, ListOffsetTimestamps } from "@platformatic/kafka"
import { Data, Effect, Schedule } from "effect"
import { EventLogError, type Position } from "../EventLog.ts"
import { isProtocolError, isRetriable } from "./client.ts"

export interface TopicSettings {
  /** Prepended to every topic and group name: lets tests (or tenants) share a cluster. */
  readonly prefix: string
  readonly partitions: number
  readonly replicationFactor: number
}

export const kafkaFailure = (action: string) => (cause: unknown) =>
  new EventLogError({
    reason: `Kafka failed to ${action}: ${cause instanceof Error ? cause.message : String(cause)}`,
    cause
  })

/** A topic that exists but does not have a leader for every partition yet. */
class NotReady extends Data.TaggedError("NotReady")<{}> {}

/**
 * Failures a moment's wait cures: a busy broker's metadata has not caught up with a topic created a moment ago
 * ("unknown topic", "not the leader", no leader yet). The client retries a request a few times by itself; a topic
 * created on a loaded machine can take longer than that.
 */
const isTransient = (error: EventLogError) => error.cause instanceof NotReady || isRetriable(error.cause)

// Exponential from 50 ms, never more than a second apart (the shorter of the two delays), for 30 seconds.
const patience = Schedule.min([Schedule.exponential("50 millis", 2), Schedule.spaced("1 second")]).pipe(
  Schedule.upTo({ duration: "30 seconds" })
)

/** An admin request, retried while it fails for a transient reason. */
const request = <A>(action: string, send: () => Promise<A>): Effect.Effect<A, EventLogError> =>
  Effect.tryPromise({ try: send, catch: kafkaFailure(action) }).pipe(Effect.retry({ schedule: patience, while: isTransient }))

/**
 * The log is the only source of truth, so its topics keep everything (no time or size retention), and a record's
 * timestamp is when the broker appended it (`appendedAt`). With three or more replicas an acknowledged append is on
 * at least two of them.
 */
const topicConfig = (settings: TopicSettings) => [
  { name: "retention.ms", value: "-1" },
  { name: "retention.bytes", value: "-1" },
  { name: "cleanup.policy", value: "delete" },
  { name: "message.timestamp.type", value: "LogAppendTime" },
  { name: "min.insync.replicas", value: String(Math.max(1, Math.min(2, settings.replicationFactor - 1))) }
]

/** Topic administration: names, creation on first use, partition counts and offsets. */
export const makeTopics = (admin: Admin, settings: TopicSettings) => {
  const partitionCounts = new Map<string, number>()
  const physical = (topic: string) => `${settings.prefix}${topic}`

  /** The partition count once every partition has a leader (a topic created a moment ago may have none yet). */
  const awaitPartitions = (topic: string) =>
    request(`describe topic ${physical(topic)}`, async () => {
      const metadata = await admin.metadata({ topics: [physical(topic)], forceUpdate: true })
      const partitions = metadata.topics.get(physical(topic))?.partitions ?? []
      if (partitions.length === 0 || partitions.some((partition) => partition.leader < 0)) throw new NotReady()
      return partitions.length
    })

  const exists = (topic: string) =>
    Effect.map(request("list topics", () => admin.listTopics()), (names) => names.includes(physical(topic)))

  // A concurrent creator (another replica, another fiber) makes the broker answer "topic exists": it exists either way.
  const create = (topic: string) =>
    request(
      `create topic ${physical(topic)} (${settings.partitions} partitions, replication factor ${settings.replicationFactor})`,
      () =>
        admin.createTopics({
          topics: [physical(topic)],
          partitions: settings.partitions,
          replicas: settings.replicationFactor,
          configs: topicConfig(settings)
        }).then(
          () => true,
          (error: unknown) => {
            if (isProtocolError(error, "TOPIC_ALREADY_EXISTS")) return false
            throw error
          }
        )
    ).pipe(
      Effect.tap((created) => (created ? Effect.logDebug(`Created Kafka topic ${physical(topic)}`) : Effect.void))
    )

  /** Creates the topic when it is missing; its partition count never changes afterwards, so it is cached. */
  const partitions = (topic: string): Effect.Effect<number, EventLogError> =>
    Effect.suspend(() => {
      const known = partitionCounts.get(topic)
      if (known !== undefined) return Effect.succeed(known)
      return exists(topic).pipe(
        Effect.flatMap((found) => (found ? Effect.void : create(topic))),
        Effect.andThen(awaitPartitions(topic)),
        Effect.tap((count) => Effect.sync(() => partitionCounts.set(topic, count)))
      )
    })

  /** Each partition's offset at `timestamp` (the earliest or the latest), by partition. */
  const listOffsets = (topic: string, count: number, timestamp: bigint) =>
    request(`read the offsets of ${physical(topic)}`, () =>
      admin.listOffsets({
        topics: [{
          name: physical(topic),
          partitions: Array.from({ length: count }, (_, partitionIndex) => ({ partitionIndex, timestamp }))
        }]
      })).pipe(
        Effect.map((answer) =>
          new Map((answer.find((entry) => entry.name === physical(topic))?.partitions ?? []).map(
            ({ offset, partitionIndex }) => [partitionIndex, Number(offset)] as const
          ))
        )
      )

  /** Per partition, in partition order: the first offset still stored and the next offset to be written. */
  const offsetRanges = (topic: string) =>
    Effect.gen(function*() {
      const count = yield* partitions(topic)
      const [lows, highs] = yield* Effect.all([
        listOffsets(topic, count, ListOffsetTimestamps.EARLIEST),
        listOffsets(topic, count, ListOffsetTimestamps.LATEST)
      ], { concurrency: 2 })
      return Array.from({ length: count }, (_, partition) => ({
        partition,
        low: lows.get(partition) ?? 0,
        high: highs.get(partition) ?? 0
      }))
    })

  const endOffsets = (topic: string): Effect.Effect<ReadonlyArray<Position>, EventLogError> =>
    Effect.map(offsetRanges(topic), (ranges) => ranges.map(({ high, partition }) => ({ topic, partition, offset: high })))

  const committedOffsets = (group: string, topic: string): Effect.Effect<ReadonlyArray<Position>, EventLogError> =>
    Effect.gen(function*() {
      const count = yield* partitions(topic)
      const answer = yield* request(
        `read the offsets group ${settings.prefix}${group} committed on ${physical(topic)}`,
        () =>
          admin.listConsumerGroupOffsets({
            groups: [{
              groupId: `${settings.prefix}${group}`,
              topics: [{ name: physical(topic), partitionIndexes: Array.from({ length: count }, (_, index) => index) }]
            }]
          })
      )
      const committed = new Map(
        (answer[0]?.topics.find((entry) => entry.name === physical(topic))?.partitions ?? []).map(
          ({ committedOffset, partitionIndex }) => [partitionIndex, Number(committedOffset)] as const
        )
      )
      // -1 (or no answer): nothing committed, which the port reports as 0.
      return Array.from({ length: count }, (_, partition) => ({
        topic,
        partition,
        offset: Math.max(0, committed.get(partition) ?? 0)
      }))
    })

  return {
    physical,
    group: (group: string) => `${settings.prefix}${group}`,
    logical: (physicalTopic: string) => physicalTopic.slice(settings.prefix.length),
    partitions,
    offsetRanges,
    endOffsets,
    committedOffsets
  }
}

export type Topics = ReturnType<typeof makeTopics>
