import { HttpApiBuilder, HttpApiSwagger, HttpServer } from "@effect/platform"
import { SynthApi } from "@synth/contracts"
import { Effect, Layer } from "effect"
import { AuditService } from "../audit/AuditService.ts"
import { ChatService } from "../chat/ChatService.ts"
import { GatewayConfig } from "../config.ts"
import { DatasetService } from "../datasets/DatasetService.ts"
import { PiiScanService } from "../datasets/PiiScanService.ts"
import { ProfileService } from "../datasets/ProfileService.ts"
import { EvaluationService } from "../evaluations/EvaluationService.ts"
import { GeneratorService } from "../generators/GeneratorService.ts"
import { AuthService } from "../users/AuthService.ts"
import { ForgetService } from "../users/ForgetService.ts"
import { AccountLive, AuthLive } from "./handlers/auth.ts"
import { ChatLive } from "./handlers/chat.ts"
import { DatasetsLive } from "./handlers/datasets.ts"
import { EvaluationsLive } from "./handlers/evaluations.ts"
import { EventsLive } from "./handlers/events.ts"
import { GeneratorsLive } from "./handlers/generators.ts"
import { HealthLive } from "./handlers/health.ts"
import { MetricsRouteLive } from "./metrics.ts"
import { AddressRateLimitLive, AuthenticationLive } from "./middlewares.ts"
import { withProblemDetails } from "./problemDetails.ts"
import { RateLimiter } from "./RateLimiter.ts"

const exposedHeaders = ["Location", "Link", "Content-Disposition", "X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"]

/** Only the configured origins; with none configured, no cross-origin access at all (never a `*`). */
const CorsLive = Layer.unwrapEffect(
  Effect.map(GatewayConfig, ({ allowedOrigins }) =>
    HttpApiBuilder.middlewareCors({
      allowedOrigins: (origin) => allowedOrigins.includes(origin),
      allowedMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
      allowedHeaders: ["Authorization", "Content-Type", "X-Request-Id"],
      exposedHeaders,
      maxAge: 600
    })
  )
)

const ApiLive = HttpApiBuilder.api(SynthApi).pipe(
  Layer.provide([HealthLive, AuthLive, AccountLive, DatasetsLive, GeneratorsLive, EvaluationsLive, ChatLive, EventsLive]),
  Layer.provide([AuthenticationLive, AddressRateLimitLive]),
  Layer.provide([AuthService.Default, ForgetService.Default, DatasetService.Default, ProfileService.Default, PiiScanService.Default, GeneratorService.Default, EvaluationService.Default, ChatService.Default, AuditService.Default, RateLimiter.Default])
)

/**
 * The gateway's HTTP surface: the API, /openapi.json, the offline Swagger UI at /docs, Prometheus metrics at
 * /metrics, CORS, and the problem-details/request-id/access-log wrapper around everything. Needs an HttpServer, the
 * event log, the read models, the projector (for its lag), the blob store and the auth services from the runtime
 * that composes it.
 */
export const GatewayHttpLive = HttpApiBuilder.serve(withProblemDetails).pipe(
  Layer.provide(HttpApiSwagger.layer({ path: "/docs" })),
  Layer.provide(MetricsRouteLive),
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
  Layer.provide(CorsLive),
  Layer.provide(ApiLive),
  HttpServer.withLogAddress
)
