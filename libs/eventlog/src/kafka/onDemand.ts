import { Effect, Layer, type Scope, Stream } from "effect"
import type { EventLog, EventLogError } from "../EventLog.ts"
import type { RawRecord } from "../integrity/verifyChains.ts"
import { type KafkaOptions, kafkaOptionsConfig } from "./options.ts"

// The Kafka adapter's entry points, loading the adapter and its client when one is first used: a runtime on the
// embedded log never loads @platformatic/kafka (about 50 MiB resident in every process that did).
const adapter = Effect.promise(() => import("./kafka.ts"))

export const makeKafka = (options: KafkaOptions) => Effect.flatMap(adapter, (kafka) => kafka.makeKafka(options))

export const readRawKafka = (options: KafkaOptions): Stream.Stream<RawRecord, EventLogError, Scope.Scope> =>
  Stream.unwrap(Effect.map(adapter, (kafka) => kafka.readRawKafka(options)))

export const layerKafka = (options: KafkaOptions): Layer.Layer<EventLog, EventLogError> =>
  Layer.unwrap(Effect.map(adapter, (kafka) => kafka.layerKafka(options)))

export const layerKafkaConfig = Layer.unwrap(Effect.map(kafkaOptionsConfig, layerKafka))
