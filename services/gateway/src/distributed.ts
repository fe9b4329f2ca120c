import { Config, Effect, Layer, Option, Schema, SchemaIssue } from "effect"

/**
 * In the distributed runtime (KAFKA_BROKERS set) a token issued by one gateway replica must verify on every other,
 * so they share JWT_SECRET; the embedded fallback, a secret generated into DATA_DIR, would differ per replica and
 * fail every request that lands on another replica. Checked before anything connects, so a missing secret stops the
 * process at once with one clear line.
 */
export const RequireSharedJwtSecret = Layer.effectDiscard(
  Effect.gen(function*() {
    // "Set" as @synth/eventlog's layerFromConfig reads it: set at all means the Kafka adapter.
    const brokers = yield* Config.option(Config.String("KAFKA_BROKERS"))
    if (Option.isNone(brokers)) return
    const secret = yield* Config.option(Config.Redacted("JWT_SECRET"))
    if (Option.isSome(secret)) return
    return yield* Effect.fail(
      new Config.ConfigError(
        new Schema.SchemaError(
          new SchemaIssue.Pointer(
            ["JWT_SECRET"],
            new SchemaIssue.MissingKey({
              messageMissingKey:
                "JWT_SECRET is required in the distributed runtime (KAFKA_BROKERS is set): every gateway replica must " +
                "verify the tokens the others issue. Give all of them the same secret, e.g. from: openssl rand -base64 32"
            })
          )
        )
      )
    )
  })
)
