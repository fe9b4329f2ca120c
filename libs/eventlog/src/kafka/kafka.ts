import { Admin, Producer, stringSerializers } from "@platformatic/kafka"
import { allTopicNames } from "@synth/contracts"
import { Duration, Effect, Layer, type Scope, Stream } from "effect"
import * as Arr from "effect/Array"
import { type AppendRecord, EventLog, type EventLogError } from "../EventLog.ts"
import type { RawRecord } from "../integrity/verifyChains.ts"
import { makeAppender } from "./appender.ts"
import { type ClientSettings, clientOptions } from "./client.ts"
import { encodeRecord } from "./codec.ts"
import { makeConsume } from "./consume.ts"
import { logClientEvents } from "./logging.ts"
import type { KafkaOptions } from "./options.ts"
import { makeRead, makeReadRaw } from "./read.ts"
import { kafkaFailure, makeTopics } from "./topics.ts"

/**
 * The event log on Apache Kafka, through @platformatic/kafka (no other file of the project names the client). One
 * topic per registry entry, partitioned by aggregate id with Kafka's own partitioner; appends are acknowledged by all
 * in-sync replicas through an idempotent producer; consumer groups commit an event's offset only after its handler
 * succeeded.
 *
 * Idempotency by eventId: Kafka cannot refuse a record by an application id, so the adapter guarantees it where it
 * can see it. The idempotent producer makes the client's own retries of one request land once; an event appended
 * through this instance within the last `dedupeWindow` appends (or twice in one call) is not appended again and
 * answers with its stored position. An event re-appended by another process, or after a restart, is stored again
 * at a new offset; consumers already handle redelivered events (handlers and projections are idempotent), and a
 * projection that must not count one twice keys its rows by eventId.
 */
/** The settings every client shares and an admin client, with the topics created when missing. */
const connect = (options: KafkaOptions) =>
  Effect.gen(function*() {
    const client: ClientSettings = { brokers: options.brokers, clientId: options.clientId ?? "synth" }
    const admin = yield* Effect.acquireRelease(
      Effect.sync(() => new Admin(clientOptions(client))),
      (admin) => Effect.promise(() => admin.close().catch(() => undefined))
    )
    yield* logClientEvents(admin)
    // Clients connect on first use: asking for the cluster's metadata makes an unreachable broker fail here.
    yield* Effect.tryPromise({
      try: () => admin.metadata({ topics: [] }),
      catch: kafkaFailure(`connect to ${options.brokers.join(",")}`)
    })
    const topics = makeTopics(admin, {
      prefix: options.topicPrefix ?? "",
      partitions: options.partitions ?? 3,
      replicationFactor: options.replicationFactor ?? 1
    })
    yield* Effect.forEach(options.topics ?? allTopicNames, topics.partitions, { discard: true })
    return { client, topics }
  })

/**
 * Every record of every topic (`options.topics`, by default the registry's), partition by partition from the first
 * offset still kept to the end offset seen when each starts, as the stored text: nothing is decoded, so tampered
 * bytes reach the caller. Records deleted by retention are gone: chains then start late and verify reports that.
 */
export const readRawKafka = (options: KafkaOptions): Stream.Stream<RawRecord, EventLogError, Scope.Scope> =>
  Stream.unwrap(Effect.gen(function*() {
    const { client, topics } = yield* connect(options)
    const readRaw = makeReadRaw(client, topics)
    const ranges = yield* Effect.forEach(options.topics ?? allTopicNames, (topic) =>
      Effect.map(topics.offsetRanges(topic), (found) => found.map((range) => ({ topic, ...range }))))
    return Stream.fromIterable(ranges.flat()).pipe(
      Stream.flatMap(({ low, partition, topic }) => readRaw({ topic, partition, fromOffset: low, follow: false }))
    )
  }))

export const makeKafka = (options: KafkaOptions) =>
  Effect.gen(function*() {
    const { client, topics } = yield* connect(options)

    // Every record names its partition (codec.ts), so the producer's own partitioner is never asked.
    const producer = yield* Effect.acquireRelease(
      Effect.sync(() =>
        new Producer({
          ...clientOptions(client),
          idempotent: true,
          autocreateTopics: false,
          serializers: stringSerializers
        })
      ),
      (producer) => Effect.promise(() => producer.close(true).catch(() => undefined))
    )
    yield* logClientEvents(producer)
    yield* Effect.tryPromise({
      try: () => producer.initIdempotentProducer({}),
      catch: kafkaFailure("start the idempotent producer")
    })
    const send = yield* makeAppender(producer, topics, {
      dedupeWindow: options.dedupeWindow ?? 100_000,
      appendTimeout: Duration.fromInputUnsafe(options.appendTimeout ?? "30 seconds")
    })
    const read = makeRead(client, topics)
    const consume = makeConsume(client, topics, {
      sessionTimeout: Duration.fromInputUnsafe(options.sessionTimeout ?? "30 seconds"),
      heartbeatInterval: Duration.fromInputUnsafe(options.heartbeatInterval ?? "3 seconds"),
      rebalanceTimeout: Duration.fromInputUnsafe(options.rebalanceTimeout ?? "30 minutes")
    })

    return EventLog.of({
      append: Effect.fn("EventLog.append")(function*(records: Arr.NonEmptyReadonlyArray<AppendRecord>) {
        return yield* Effect.all(
          Arr.map(records, (record) =>
            Effect.flatMap(topics.partitions(record.topic), (count) => encodeRecord(record, count)))
        ).pipe(Effect.flatMap(send))
      }),
      partitions: (topic) => topics.partitions(topic),
      endOffsets: Effect.fn("EventLog.endOffsets")(function*(topic: string) {
        return yield* topics.endOffsets(topic)
      }),
      read: (readOptions) => read(readOptions).pipe(Stream.withSpan("EventLog.read", { attributes: { ...readOptions } })),
      consume: (consumeOptions) =>
        consume(consumeOptions).pipe(
          Effect.withSpan("EventLog.consume", {
            attributes: { group: consumeOptions.group, topics: consumeOptions.topics }
          })
        ),
      committedOffsets: Effect.fn("EventLog.committedOffsets")(function*(group: string, topic: string) {
        return yield* topics.committedOffsets(group, topic)
      })
    })
  }).pipe(Effect.withSpan("EventLog.openKafka", { attributes: { brokers: options.brokers.join(",") } }))

export const layerKafka = (options: KafkaOptions): Layer.Layer<EventLog, EventLogError> =>
  Layer.effect(EventLog, makeKafka(options))
