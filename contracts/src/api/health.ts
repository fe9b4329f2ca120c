import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { ServiceUnavailable } from "../errors.ts"
import { Timestamp } from "../ids.ts"

export const HealthResult = Schema.Struct({
  status: Schema.Literal("healthy"),
  service: Schema.String,
  timestamp: Timestamp
}).annotate({ identifier: "HealthResult" })

export class HealthGroup extends HttpApiGroup.make("health")
  .add(HttpApiEndpoint.get("health", "/health", { success: HealthResult, error: ServiceUnavailable })) {}
