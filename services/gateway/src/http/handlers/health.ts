import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { ServiceUnavailable, SynthApi } from "@synth/contracts"
import { Clock, DateTime, Effect } from "effect"
import { GatewayConfig } from "../../config.ts"

/** How long the read-model database may take to answer a readiness check. */
const databaseCheckTimeout = "2 seconds"

export const HealthLive = HttpApiBuilder.group(SynthApi, "health", (handlers) =>
  Effect.gen(function* () {
    const { serviceName } = yield* GatewayConfig
    const sql = yield* SqlClient.SqlClient
    const now = Effect.map(Clock.currentTimeMillis, (millis) => DateTime.formatIso(DateTime.makeUnsafe(millis)))
    const databaseAnswers = sql`SELECT 1`.pipe(
      Effect.timeout(databaseCheckTimeout),
      Effect.mapError(() => new ServiceUnavailable({ detail: "The read-model database does not answer. Retry in a moment." }))
    )
    return handlers
      .handle("health", () => Effect.map(now, (timestamp) => ({ status: "healthy" as const, service: serviceName, timestamp })))
      .handle("ready", () =>
        Effect.andThen(databaseAnswers, Effect.map(now, (timestamp) => ({ status: "ready" as const, service: serviceName, timestamp })))
      )
  })
)
