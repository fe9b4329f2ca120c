import { HttpApiBuilder } from "effect/http-api"
import { SynthApi } from "@synth/contracts"
import { Clock, DateTime, Effect } from "effect"
import { GatewayConfig } from "../../config.ts"

export const HealthLive = HttpApiBuilder.group(SynthApi, "health", (handlers) =>
  Effect.gen(function* () {
    const { serviceName } = yield* GatewayConfig
    return handlers.handle("health", () =>
      Effect.map(Clock.currentTimeMillis, (now) => ({
        status: "healthy" as const,
        service: serviceName,
        timestamp: DateTime.formatIso(DateTime.makeUnsafe(now))
      }))
    )
  })
)
