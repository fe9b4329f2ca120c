import { allTopicNames } from "@synth/contracts"
import { Config, Duration, Effect, Layer, Schema, SchemaIssue, type Scope, Stream } from "effect"
import * as Arr from "effect/Array"
import { Kafka, logLevel, Partitioners } from "kafkajs"
import { type AppendRecord, EventLog, type EventLogError } from "../EventLog.ts"
import { makeAppender } from "./appender.ts"
import { encodeRecord } from "./codec.ts"
import { makeConsume } from "./consume.ts"
import { effectLogCreator } from "./logging.ts"
import type { RawRecord } from "../integrity/verifyChains.ts"
import { makeRead, makeReadRaw } from "./read.ts"
import { kafkaFailure, makeTopics } from "./topics.ts"

export interface KafkaOptions {
  /** `host:port` of one or more brokers. */
  readonly brokers: ReadonlyArray<string>
  /** Default "synth". */
  readonly clientId?: string
  /** Prepended to every topic and consumer-group name (default none): tests and tenants can share a cluster. */
  readonly topicPrefix?: string
  /** Partitions of the topics this adapter creates (default 3). Existing topics keep theirs. */
  readonly partitions?: number
  /** Replicas of the topics this adapter creates (default 1: a single broker). */
  readonly replicationFactor?: number
  /** Created (when missing) before the log is used (default: the topic registry of @synth/contracts). */
  readonly topics?: ReadonlyArray<string>
  /** How long an append waits for the broker (default 30 s). */
  readonly appendTimeout?: Duration.Input
  /** Recently appended event ids this process remembers to answer a re-append with the stored position (default 100 000). */
  readonly dedupeWindow?: number
  /** Default 30 s: how long the group waits for a member it no longer hears from (a crashed process). */
  readonly sessionTimeout?: Duration.Input
  /** Default 3 s; well under the session timeout. */
  readonly heartbeatInterval?: Duration.Input
  /**
   * Default 30 minutes: how long a rebalance waits for a member that is busy with a healthy long handler (model
   * training) before giving its partitions to another member.
   */
  readonly rebalanceTimeout?: Duration.Input
}

/**
 * The event log on Apache Kafka (kafkajs). One topic per registry entry, partitioned by aggregate id with Kafka's
 * own partitioner; appends are acknowledged by all in-sync replicas through an idempotent producer; consumer groups
 * commit an event's offset only after its handler succeeded.
 *
 * Idempotency by eventId: Kafka cannot refuse a record by an application id, so the adapter guarantees it where it
 * can see it. The idempotent producer makes the client's own retries of one request land once; an event appended
 * through this instance within the last `dedupeWindow` appends (or twice in one call) is not appended again and
 * answers with its stored position. An event re-appended by another process, or after a restart, is stored again
 * at a new offset; consumers already handle redelivered events (handlers and projections are idempotent), and a
 * projection that must not count one twice keys its rows by eventId.
 */
/** A client and its admin connection, with the topics created when missing. */
const connect = (options: KafkaOptions) =>
  Effect.gen(function*() {
    const clientId = options.clientId ?? "synth"
    const kafka = new Kafka({
      clientId,
      brokers: [...options.brokers],
      logLevel: logLevel.INFO,
      logCreator: effectLogCreator(yield* Effect.context())
    })
    const admin = yield* Effect.acquireRelease(
      Effect.sync(() => kafka.admin()),
      (admin) => Effect.promise(() => admin.disconnect().catch(() => undefined))
    )
    yield* Effect.tryPromise({ try: () => admin.connect(), catch: kafkaFailure(`connect to ${options.brokers.join(",")}`) })
    const topics = makeTopics(admin, {
      prefix: options.topicPrefix ?? "",
      partitions: options.partitions ?? 3,
      replicationFactor: options.replicationFactor ?? 1
    })
    yield* Effect.forEach(options.topics ?? allTopicNames, topics.partitions, { discard: true })
    return { clientId, kafka, topics }
  })

/**
 * Every record of every topic (`options.topics`, by default the registry's), partition by partition from the first
 * offset still kept to the end offset seen when each starts, as the stored text: nothing is decoded, so tampered
 * bytes reach the caller. Records deleted by retention are gone: chains then start late and verify reports that.
 */
export const readRawKafka = (options: KafkaOptions): Stream.Stream<RawRecord, EventLogError, Scope.Scope> =>
  Stream.unwrap(Effect.gen(function*() {
    const { clientId, kafka, topics } = yield* connect(options)
    const readRaw = makeReadRaw(kafka, topics, {
      clientId,
      heartbeatInterval: Duration.fromInputUnsafe(options.heartbeatInterval ?? "3 seconds")
    })
    const ranges = yield* Effect.forEach(options.topics ?? allTopicNames, (topic) =>
      Effect.map(topics.offsetRanges(topic), (found) => found.map((range) => ({ topic, ...range }))))
    return Stream.fromIterable(ranges.flat()).pipe(
      Stream.flatMap(({ low, partition, topic }) => readRaw({ topic, partition, fromOffset: low, follow: false }))
    )
  }))

export const makeKafka = (options: KafkaOptions) =>
  Effect.gen(function*() {
    const { clientId, kafka, topics } = yield* connect(options)

    const producer = yield* Effect.acquireRelease(
      Effect.sync(() => kafka.producer({
          idempotent: true,
          maxInFlightRequests: 1,
          allowAutoTopicCreation: false,
          // Partitions are chosen in codec.ts with this same partitioner; naming it also keeps kafkajs from warning.
          createPartitioner: Partitioners.DefaultPartitioner
        })),
      (producer) => Effect.promise(() => producer.disconnect().catch(() => undefined))
    )
    yield* Effect.tryPromise({ try: () => producer.connect(), catch: kafkaFailure("connect the producer") })
    const send = yield* makeAppender(producer, topics, {
      dedupeWindow: options.dedupeWindow ?? 100_000,
      appendTimeout: Duration.fromInputUnsafe(options.appendTimeout ?? "30 seconds")
    })
    const heartbeatInterval = Duration.fromInputUnsafe(options.heartbeatInterval ?? "3 seconds")
    const read = makeRead(kafka, topics, { clientId, heartbeatInterval })
    const consume = makeConsume(kafka, topics, {
      sessionTimeout: Duration.fromInputUnsafe(options.sessionTimeout ?? "30 seconds"),
      heartbeatInterval,
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

const positive = (name: string) =>
  Config.schema(Schema.Int.check(Schema.isGreaterThan(0, { message: `${name} must be a positive integer` })), name)

/**
 * The Kafka adapter as the distributed runtime configures it: KAFKA_BROKERS (comma-separated host:port, required),
 * KAFKA_CLIENT_ID, KAFKA_TOPIC_PREFIX, KAFKA_PARTITIONS (3), KAFKA_REPLICATION_FACTOR (1), KAFKA_APPEND_TIMEOUT
 * (30 seconds), KAFKA_SESSION_TIMEOUT (30 seconds), KAFKA_REBALANCE_TIMEOUT (30 minutes).
 */
export const kafkaOptionsConfig: Config.Config<KafkaOptions> = Config.all({
  brokers: Config.Array(Schema.String, "KAFKA_BROKERS").pipe(
    Config.map((brokers) => brokers.map((broker) => broker.trim()).filter((broker) => broker.length > 0)),
    Config.mapEffect((brokers) =>
      brokers.length > 0
        ? Effect.succeed(brokers)
        : Effect.fail(new Config.ConfigError(new Schema.SchemaError(new SchemaIssue.InvalidValue({
          message: "KAFKA_BROKERS must name at least one host:port"
        }))))
    )
  ),
  clientId: Config.String("KAFKA_CLIENT_ID").pipe(Config.withDefault("synth")),
  topicPrefix: Config.String("KAFKA_TOPIC_PREFIX").pipe(Config.withDefault("")),
  partitions: positive("KAFKA_PARTITIONS").pipe(Config.withDefault(3)),
  replicationFactor: positive("KAFKA_REPLICATION_FACTOR").pipe(Config.withDefault(1)),
  appendTimeout: Config.Duration("KAFKA_APPEND_TIMEOUT").pipe(Config.withDefault(Duration.seconds(30))),
  sessionTimeout: Config.Duration("KAFKA_SESSION_TIMEOUT").pipe(Config.withDefault(Duration.seconds(30))),
  rebalanceTimeout: Config.Duration("KAFKA_REBALANCE_TIMEOUT").pipe(Config.withDefault(Duration.minutes(30)))
})

export const layerKafkaConfig = Layer.unwrap(Effect.map(kafkaOptionsConfig, layerKafka))
