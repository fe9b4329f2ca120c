import { Data, Effect, Schedule } from "effect"
import type { Admin } from "kafkajs"
import { EventLogError, type Position } from "../EventLog.ts"

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
 * ("unknown topic", "not the leader"). kafkajs marks them retriable but does not retry them in every admin call.
 */
const isTransient = (error: EventLogError) => {
  for (let cause: unknown = error.cause; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof NotReady || (cause as { readonly retriable?: unknown }).retriable === true) return true
  }
  return false
}

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
      const partitions = (await admin.fetchTopicMetadata({ topics: [physical(topic)] })).topics[0]?.partitions ?? []
      if (partitions.length === 0 || partitions.some((partition) => partition.leader < 0)) throw new NotReady()
      return partitions.length
    })

  const exists = (topic: string) =>
    Effect.map(request("list topics", () => admin.listTopics()), (names) => names.includes(physical(topic)))

  // A concurrent creator (another replica, another fiber) makes createTopics answer false: the topic exists either way.
  const create = (topic: string) =>
    request(
      `create topic ${physical(topic)} (${settings.partitions} partitions, replication factor ${settings.replicationFactor})`,
      () =>
        admin.createTopics({
          waitForLeaders: false,
          topics: [{
            topic: physical(topic),
            numPartitions: settings.partitions,
            replicationFactor: settings.replicationFactor,
            configEntries: topicConfig(settings)
          }]
        })
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

  /** Per partition, in partition order: the first offset still stored and the next offset to be written. */
  const offsetRanges = (topic: string) =>
    Effect.andThen(
      partitions(topic),
      request(`read the offsets of ${physical(topic)}`, () => admin.fetchTopicOffsets(physical(topic)))
    ).pipe(
      Effect.map((offsets) =>
        offsets
          .map(({ high, low, partition }) => ({ partition, low: Number(low), high: Number(high) }))
          .sort((left, right) => left.partition - right.partition)
      )
    )

  const endOffsets = (topic: string): Effect.Effect<ReadonlyArray<Position>, EventLogError> =>
    Effect.map(offsetRanges(topic), (ranges) => ranges.map(({ high, partition }) => ({ topic, partition, offset: high })))

  const committedOffsets = (group: string, topic: string): Effect.Effect<ReadonlyArray<Position>, EventLogError> =>
    Effect.andThen(
      partitions(topic),
      request(
        `read the offsets group ${settings.prefix}${group} committed on ${physical(topic)}`,
        () => admin.fetchOffsets({ groupId: `${settings.prefix}${group}`, topics: [physical(topic)] })
      )
    ).pipe(
      Effect.map((answer) =>
        (answer.find((entry) => entry.topic === physical(topic))?.partitions ?? [])
          // -1: nothing committed, which the port reports as 0.
          .map(({ offset, partition }) => ({ topic, partition, offset: Math.max(0, Number(offset)) }))
          .sort((left, right) => left.partition - right.partition)
      )
    )

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
