import { Consumer, ListOffsetTimestamps } from "@platformatic/kafka"
import { Deferred, Duration, Effect, Schedule } from "effect"
import type { ConsumeOptions, EventLogError } from "../EventLog.ts"
import { annotateEventLogs } from "../internal/annotateEventLogs.ts"
import { type Claims, encodeClaims, keepBusyAssigner, keepBusyProtocol, type TopicPartition } from "./assigner.ts"
import { type ClientSettings, clientOptions } from "./client.ts"
import { decodeMessage } from "./codec.ts"
import { type FetchedRecord, fetchRecords, type FetchPosition, positionKey, retryTransientFetch } from "./fetch.ts"
import { logClientEvents } from "./logging.ts"
import { kafkaFailure, type Topics } from "./topics.ts"

export interface ConsumeSettings {
  /** The group drops a member it has not heard from for this long (a crashed process). */
  readonly sessionTimeout: Duration.Duration
  /** The client heartbeats in the background at this pace, whatever the handler is doing. */
  readonly heartbeatInterval: Duration.Duration
  /** How long a rebalance waits for every member to rejoin (the client rejoins as soon as a heartbeat says so). */
  readonly rebalanceTimeout: Duration.Duration
}

/** A follower's fetch waits this long for news before the member looks at its group again. */
const fetchWait = 1_000
const maxBytesPerPartition = 1024 * 1024

/** What this member holds, handed to the group's leader whenever it rejoins (see assigner.ts). */
const makeClaims = () => {
  let claims: Claims = { owned: [], busy: undefined }
  return {
    get: () => claims,
    own: (owned: ReadonlyArray<TopicPartition>) => (claims = { ...claims, owned }),
    handle: (busy: TopicPartition | undefined) => (claims = { ...claims, busy })
  }
}

/**
 * A member of a consumer group. Each event is handled in partition order, one at a time per member (handlers need
 * not be reentrant), and its offset is committed only after the handler succeeded: a crash before the commit
 * redelivers the event, so handlers must be idempotent. A failing handler stops the member with its error, nothing
 * committed for that event, and the next member of the group gets the event again.
 *
 * The member fetches its partitions itself, from the offsets the group committed, and starts over from them after
 * every rebalance, so nothing fetched for a partition it may have lost is ever handled. The client heartbeats in
 * the background, so a long handler keeps its member in the group, and the group's assignment (assigner.ts) leaves
 * the partition whose event is being handled with its member: a member joining meanwhile neither takes the event
 * nor makes the group wait for it.
 */
export const makeConsume = (client: ClientSettings, topics: Topics, settings: ConsumeSettings) =>
<E, R>(options: ConsumeOptions<E, R>): Effect.Effect<never, EventLogError | E, R> =>
  Effect.scoped(Effect.gen(function*() {
    yield* Effect.forEach(options.topics, topics.partitions, { discard: true })
    const physicalTopics = options.topics.map(topics.physical)
    const claims = makeClaims()
    const runtime = yield* Effect.context<never>()
    const failure = kafkaFailure(`consume ${options.topics.join(", ")} in group ${options.group}`)
    const lostGroup = yield* Deferred.make<never, EventLogError>()

    const consumer = yield* Effect.acquireRelease(
      Effect.sync(() =>
        new Consumer({
          ...clientOptions(client),
          groupId: topics.group(options.group),
          sessionTimeout: Duration.toMillis(settings.sessionTimeout),
          heartbeatInterval: Duration.toMillis(settings.heartbeatInterval),
          rebalanceTimeout: Duration.toMillis(settings.rebalanceTimeout),
          protocols: [keepBusyProtocol],
          protocolsMetadata: () => encodeClaims(claims.get()),
          partitionAssigner: keepBusyAssigner
        })
      ),
      // The handler in flight was interrupted before this (its event stays uncommitted); closing leaves the group.
      (consumer) => Effect.promise(() => consumer.close(true).catch(() => undefined))
    )
    // Fetches wait up to `fetchWait` on the broker, which answers a connection's requests in order: on a client of
    // their own they never hold up the member's heartbeats and commits.
    const fetcher = yield* Effect.acquireRelease(
      Effect.sync(() => new Consumer({ ...clientOptions(client), groupId: topics.group(options.group) })),
      (fetcher) => Effect.promise(() => fetcher.close(true).catch(() => undefined))
    )
    yield* logClientEvents(consumer)
    yield* logClientEvents(fetcher)
    // Raised when the member could not rejoin its group after the client's retries: it stops, as a crash would.
    consumer.on("error", (error: unknown) => Effect.runForkWith(runtime)(Deferred.fail(lostGroup, failure(error))))

    const isMember = (generation: number) => consumer.isActive() && consumer.generationId === generation

    /** Once the member is in its group: its generation and, for each partition it was given, the offset to go on from. */
    const plan = Effect.gen(function*() {
      yield* Effect.sync(() => consumer.isActive()).pipe(
        Effect.repeat({ until: (active) => active, schedule: Schedule.spaced("50 millis") })
      )
      const generation = consumer.generationId
      const assigned = (consumer.assignments ?? []).filter((assignment) => physicalTopics.includes(assignment.topic))
      claims.own(
        assigned.flatMap(({ partitions, topic }) => partitions.map((partition): TopicPartition => [topic, partition]))
      )
      if (assigned.length === 0) return { generation, positions: [] }
      const [committed, earliest] = yield* Effect.tryPromise(() =>
        Promise.all([
          consumer.listCommittedOffsets({ topics: assigned }),
          consumer.listOffsets({ topics: assigned.map(({ topic }) => topic), timestamp: ListOffsetTimestamps.EARLIEST })
        ])
      ).pipe(Effect.mapError((failure) => failure.cause), retryTransientFetch("read the group's committed offsets"))
      // Nothing committed yet (-1): the partition is read from its first offset still kept.
      const positions = assigned.flatMap(({ partitions, topic }) =>
        partitions.map((partition): FetchPosition => {
          const next = committed.get(topic)?.[partition] ?? -1n
          return { topic, partition, offset: Number(next >= 0n ? next : earliest.get(topic)?.[partition] ?? 0n) }
        })
      )
      return { generation, positions }
    })

    /**
     * Handles one event and commits the offset after it. Whether the commit landed: when it did not (the group moved
     * on meanwhile), the member starts over from what the group committed. The partition stays claimed until the
     * commit is done, so a rebalance cannot hand the event to another member before its offset is committed.
     */
    const handleAndCommit = (physicalTopic: string, partition: number, record: FetchedRecord) =>
      Effect.gen(function*() {
        const topic = topics.logical(physicalTopic)
        const event = yield* decodeMessage(topic, partition, record)
        yield* options.handle(event).pipe(annotateEventLogs(event))
        const next = { topic: physicalTopic, partition, offset: BigInt(record.offset + 1) }
        return yield* Effect.tryPromise(() => consumer.commit({ offsets: [{ ...next, leaderEpoch: record.leaderEpoch }] }))
          .pipe(
            Effect.as(true),
            Effect.catch(({ cause }) =>
              Effect.as(
                Effect.logWarning(
                  `Kafka refused the commit after ${topic}/${partition}@${record.offset} was handled; ` +
                    "the event will be handled again",
                  String(cause)
                ),
                false
              )
            )
          )
      }).pipe(Effect.ensuring(Effect.sync(() => claims.handle(undefined))))

    /** Handles what its partitions hold, in order, until the group rebalances. */
    const handleUntilRebalance = (generation: number, start: ReadonlyArray<FetchPosition>) =>
      Effect.gen(function*() {
        const positions = new Map(start.map((position) => [positionKey(position.topic, position.partition), position]))
        while (isMember(generation)) {
          const fetched = yield* fetchRecords(fetcher, [...positions.values()], {
            maxWaitTime: fetchWait,
            maxBytesPerPartition
          }).pipe(retryTransientFetch(`fetch ${physicalTopics.join(", ")} for group ${options.group}`))
          for (const [key, { next, records }] of fetched) {
            const { partition, topic } = positions.get(key)!
            for (const record of records) {
              // Checked and claimed in one step (nothing runs between them): a rejoin that starts after the check
              // sees the partition as busy, and one that started before it stops this member here.
              if (!isMember(generation)) return
              claims.handle([topic, partition])
              if (!(yield* handleAndCommit(topic, partition, record))) return
              positions.set(key, { topic, partition, offset: record.offset + 1 })
            }
            positions.set(key, { topic, partition, offset: Math.max(next, positions.get(key)!.offset) })
          }
        }
      })

    const member = Effect.gen(function*() {
      for (;;) {
        const { generation, positions } = yield* plan
        if (positions.length === 0) yield* Effect.sleep(fetchWait)
        else yield* handleUntilRebalance(generation, positions)
      }
    })

    consumer.topics.trackAll(...physicalTopics)
    yield* Effect.tryPromise({
      try: () => consumer.joinGroup(),
      catch: kafkaFailure(`join group ${options.group} on ${options.topics.join(", ")}`)
    })
    return yield* Effect.raceFirst(member, Deferred.await(lostGroup)).pipe(
      Effect.annotateLogs({ group: options.group })
    )
  }))
