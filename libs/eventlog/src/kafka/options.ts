import { Config, Duration, Effect, Schema, SchemaIssue } from "effect"

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
  /** Default 3 s; well under the session timeout. The client heartbeats in the background, whatever a handler does. */
  readonly heartbeatInterval?: Duration.Input
  /**
   * Default 30 minutes: how long a rebalance waits for every member to rejoin. Members rejoin as soon as a heartbeat
   * tells them to, and one busy with a long handler (model training) keeps the partition it is handling meanwhile.
   */
  readonly rebalanceTimeout?: Duration.Input
}

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
        : Effect.fail(
          new Config.ConfigError(
            new Schema.SchemaError(new SchemaIssue.InvalidValue({ message: "KAFKA_BROKERS must name at least one host:port" }))
          )
        )
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
