import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ServiceUnavailable } from "../errors.ts"
import { Timestamp } from "../ids.ts"

export const HealthResult = Schema.Struct({
  status: Schema.Literal("healthy"),
  service: Schema.String,
  timestamp: Timestamp
}).annotate({ identifier: "HealthResult" })

export const ReadinessResult = Schema.Struct({
  status: Schema.Literal("ready"),
  service: Schema.String,
  timestamp: Timestamp
}).annotate({ identifier: "ReadinessResult" })

/**
 * Liveness and readiness, for orchestrators and load balancers. Both answer 503 (with Retry-After) while the
 * process starts, before its routes exist. /health: the process answers. /ready: it should be sent traffic: it is
 * not shutting down and its read-model database answers.
 */
export class HealthGroup extends HttpApiGroup.make("health")
  .add(
    HttpApiEndpoint.get("health", "/health", { success: HealthResult, error: ServiceUnavailable })
      .annotate(
        OpenApi.Description,
        "Liveness: 200 while the process answers requests (503 with Retry-After while it starts)."
      )
  )
  .add(
    HttpApiEndpoint.get("ready", "/ready", { success: ReadinessResult, error: ServiceUnavailable })
      .annotate(
        OpenApi.Description,
        "Readiness: 200 when this process should be sent traffic; 503 service_unavailable with Retry-After while it " +
          "starts, once it is shutting down, or while its read-model database does not answer."
      )
  ) {}
