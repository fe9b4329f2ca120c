import { Config, Effect, Layer, Option } from "effect"
import { layerEmbeddedConfig } from "./embedded.ts"
import { layerKafkaConfig } from "./kafka/onDemand.ts"

/**
 * The adapter is chosen by configuration only: Kafka when KAFKA_BROKERS is set (see `kafkaOptionsConfig`), else the
 * durable embedded log in DATA_DIR/eventlog.
 */
export const layerFromConfig = Layer.unwrap(
  Effect.map(
    Config.option(Config.String("KAFKA_BROKERS")),
    Option.match({ onNone: () => layerEmbeddedConfig, onSome: () => layerKafkaConfig })
  )
)
