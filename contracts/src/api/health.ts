import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { Timestamp } from "../ids.ts"

export const HealthResult = Schema.Struct({
  status: Schema.Literal("healthy"),
  service: Schema.String,
  timestamp: Timestamp
}).annotations({ identifier: "HealthResult" })

export class HealthGroup extends HttpApiGroup.make("health")
  .add(HttpApiEndpoint.get("health", "/health").addSuccess(HealthResult)) {}
