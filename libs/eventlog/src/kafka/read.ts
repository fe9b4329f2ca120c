import { Array as Arr, Duration, Effect, Exit, Queue, Stream, type Take } from "effect"
import { AssignerProtocol, type Batch, type Consumer, type Kafka, type KafkaMessage, type PartitionAssigner } from "kafkajs"
import { EventLogError, type StoredEvent } from "../EventLog.ts"
import type { RawRecord } from "../integrity/verifyChains.ts"
import { decodeMessage } from "./codec.ts"
import { whileHeartbeating } from "./heartbeat.ts"
import { kafkaFailure, type Topics } from "./topics.ts"

export interface ReadSettings {
  readonly heartbeatInterval: Duration.Duration
  /** Names the throwaway groups readers use, so an operator can tell them apart. */
  readonly clientId: string
}

export interface ReadOptions {
  readonly topic: string
  readonly partition: number
  readonly fromOffset: number
  readonly follow: boolean
}

/** Chunks a reader buffers ahead of its stream (each is one fetched batch, at most 1 MiB). */
const bufferedBatches = 8

/**
 * kafkajs has no consumer without a group, so a reader is the only member of a group of its own, and this assigner
 * gives it exactly the partition it reads. Nothing is ever committed for such a group.
 */
const onePartition = (topic: string, partition: number): PartitionAssigner => () => ({
  name: "SynthOnePartition",
  version: 1,
  protocol: ({ topics }) => ({
    name: "SynthOnePartition",
    metadata: AssignerProtocol.MemberMetadata.encode({ version: 1, topics, userData: Buffer.alloc(0) })
  }),
  assign: ({ members }) =>
    Promise.resolve(members.map((member, index) => ({
      memberId: member.memberId,
      memberAssignment: AssignerProtocol.MemberAssignment.encode({
        version: 1,
        assignment: index === 0 ? { [topic]: [partition] } : {},
        userData: Buffer.alloc(0)
      })
    })))
})

const invalid = (reason: string) => Stream.fail(new EventLogError({ reason }))

type Decode<A> = (topic: string, partition: number, message: KafkaMessage) => Effect.Effect<A, EventLogError>

/** The value as stored, undecoded: what `synth events verify` checks, tampered bytes included. */
const rawMessage: Decode<RawRecord> = (topic, partition, message) =>
  Effect.succeed({ topic, partition, offset: Number(message.offset), text: message.value?.toString("utf8") ?? "" })

const makeReadWith = <A extends { readonly offset: number }>(decode: Decode<A>) =>
(kafka: Kafka, topics: Topics, settings: ReadSettings) =>
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
    const runtime = yield* Effect.context()
    const takes = yield* Effect.acquireRelease(Queue.bounded<Take.Take<A, EventLogError>>(bufferedBatches), Queue.shutdown)
    // The next offset the stream expects: a (re)joining reader seeks there, and anything before it is a repeat.
    let next = fromOffset

    const deliver = (batch: Batch) =>
      Effect.gen(function*() {
        const fresh = batch.messages.filter((message) => Number(message.offset) >= next && Number(message.offset) < end)
        const events = yield* Effect.forEach(fresh, (message) => decode(topic, partition, message))
        if (Arr.isReadonlyArrayNonEmpty(events)) {
          yield* Queue.offer(takes, events)
          next = Arr.lastNonEmpty(events).offset + 1
        }
        if (Number(batch.lastOffset()) >= end - 1) yield* Queue.offer(takes, Exit.void)
      }).pipe(Effect.catch((error) => Queue.offer(takes, Exit.fail(error))))

    const consumer: Consumer = yield* Effect.acquireRelease(
      Effect.sync(() =>
        kafka.consumer({
          groupId: topics.group(`${settings.clientId}.reader.${crypto.randomUUID()}`),
          partitionAssigners: [onePartition(physicalTopic, partition)],
          allowAutoTopicCreation: false,
          // Bounds how long closing a reader waits for the fetch in flight; new records end a fetch at once anyway.
          maxWaitTimeInMs: 500,
          heartbeatInterval: Duration.toMillis(settings.heartbeatInterval)
        })
      ),
      // Shutting the queue down first releases a batch handler waiting to offer, which the disconnect waits for.
      (consumer) => Queue.shutdown(takes).pipe(Effect.andThen(Effect.promise(() => consumer.disconnect().catch(() => undefined))))
    )
    consumer.on(consumer.events.GROUP_JOIN, () => consumer.seek({ topic: physicalTopic, partition, offset: String(next) }))
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart) {
        Effect.runForkWith(runtime)(Queue.offer(takes, Exit.fail(kafkaFailure(`read ${physicalTopic}/${partition}`)(payload.error))))
      }
    })
    yield* Effect.tryPromise({
      try: async () => {
        await consumer.connect()
        await consumer.subscribe({ topics: [physicalTopic], fromBeginning: true })
        await consumer.run({
          autoCommit: false,
          eachBatch: async ({ batch, heartbeat, isStale }) => {
            if (isStale() || batch.partition !== partition) return
            // A slow stream makes this wait; heartbeats keep the reader's group from dropping it meanwhile.
            const delivery = deliver(batch).pipe(
              whileHeartbeating(heartbeat, settings.heartbeatInterval, () => Effect.void)
            )
            // Rejected only when the stream has ended and shut the queue: nothing is left to deliver then.
            await Effect.runPromiseWith(runtime)(delivery).catch(() => undefined)
          }
        })
      },
      catch: kafkaFailure(`start reading ${physicalTopic}/${partition}`)
    })
    return Stream.flattenTake(Stream.fromQueue(takes))
  }))
}

export const makeRead = makeReadWith<StoredEvent>(decodeMessage)

export const makeReadRaw = makeReadWith(rawMessage)
