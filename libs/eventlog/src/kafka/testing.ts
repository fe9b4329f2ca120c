import { Producer, stringSerializers } from "@platformatic/kafka"
import { Effect, Layer } from "effect"
import type { EventLog, EventLogError } from "../EventLog.ts"
import { layerKafka } from "./kafka.ts"
import { type KafkaOptions, kafkaOptionsConfig } from "./options.ts"

/**
 * The brokers of the test run: KAFKA_BROKERS, which the int and e2e setup (test/support/infra.ts) sets to a broker it
 * started, unless the environment already named one.
 */
export const testKafkaBrokers: Effect.Effect<ReadonlyArray<string>> = kafkaOptionsConfig.pipe(
  Effect.map((options) => options.brokers),
  Effect.mapError((error) =>
    new Error(`Kafka tests need KAFKA_BROKERS (the int/e2e setup provides it; see test/support/infra.ts): ${String(error)}`)
  ),
  Effect.orDie
)

/** A topic and group prefix no other test uses, so tests share one cluster without seeing each other. */
export const uniqueKafkaPrefix = (): string => `test-${crypto.randomUUID().slice(0, 8)}.`

/** The Kafka adapter on the test brokers, under a prefix of its own, without the registry's topics. */
export const layerKafkaForTests = (
  options: Omit<KafkaOptions, "brokers"> = {}
): Layer.Layer<EventLog, EventLogError> =>
  Layer.unwrap(
    Effect.map(testKafkaBrokers, (brokers) => layerKafka({ topics: [], topicPrefix: uniqueKafkaPrefix(), ...options, brokers }))
  )

/** For code that configures itself (layerFromConfig): the test brokers and a fresh prefix, as settings. */
export const kafkaTestSettings: Effect.Effect<Readonly<Record<string, string>>> = Effect.map(
  testKafkaBrokers,
  (brokers) => ({ KAFKA_BROKERS: brokers.join(","), KAFKA_TOPIC_PREFIX: uniqueKafkaPrefix() })
)


/**
 * Writes one record straight to a topic, as something other than the adapter would (no seal, no checks): a forged
 * or tampered copy for the integrity tests. `topic` is the name on the broker, prefix included. Answers its offset.
 */
export const produceForeignRecord = (record: {
  readonly brokers: ReadonlyArray<string>
  readonly topic: string
  readonly partition: number
  readonly key: string
  readonly value: string
}): Effect.Effect<number> =>
  Effect.acquireUseRelease(
    Effect.sync(() =>
      new Producer({ clientId: "synth-test-forger", bootstrapBrokers: [...record.brokers], serializers: stringSerializers })
    ),
    (producer) =>
      Effect.promise(() =>
        producer.send({ messages: [{ topic: record.topic, partition: record.partition, key: record.key, value: record.value }] })
      ).pipe(Effect.map((result) => Number(result.offsets?.[0]?.offset ?? Number.NaN))),
    (producer) => Effect.promise(() => producer.close(true))
  )
