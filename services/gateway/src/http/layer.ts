import { HttpMiddleware, HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiSwagger } from "effect/http-api"
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
import { RequestValidationLive } from "./requestValidation.ts"
import { withProblemDetails } from "./problemDetails.ts"
import { RateLimiter } from "./RateLimiter.ts"

const exposedHeaders = ["Location", "Link", "Content-Disposition", "X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"]

/** Only the configured origins; with none configured, no cross-origin access at all (never a `*`). */
const CorsLive = Layer.unwrap(
  Effect.map(GatewayConfig, ({ allowedOrigins }) =>
    HttpRouter.middleware(HttpMiddleware.cors({
      allowedOrigins: (origin: string) => allowedOrigins.includes(origin),
      allowedMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
      allowedHeaders: ["Authorization", "Content-Type", "X-Request-Id"],
      exposedHeaders,
      maxAge: 600
    }), { global: true })
  )
)

const ApiLive = HttpApiBuilder.layer(SynthApi, { openapiPath: "/openapi.json" }).pipe(
  Layer.provide([HealthLive, AuthLive, AccountLive, DatasetsLive, GeneratorsLive, EvaluationsLive, ChatLive, EventsLive]),
  Layer.provide([AuthenticationLive, AddressRateLimitLive, RequestValidationLive]),
  Layer.provide([AuthService.layer, ForgetService.layer, DatasetService.layer, ProfileService.layer, PiiScanService.layer, GeneratorService.layer, EvaluationService.layer, ChatService.layer, AuditService.layer, RateLimiter.layer])
)

/**
 * The gateway's HTTP surface: the API, /openapi.json, the offline Swagger UI at /docs, Prometheus metrics at
 * /metrics, CORS, and the problem-details/request-id/access-log wrapper around everything. Needs an HttpServer, the
 * event log, the read models, the projector (for its lag), the blob store and the auth services from the runtime
 * that composes it.
 */
export const GatewayHttpLive = HttpRouter.serve(
  Layer.mergeAll(ApiLive, HttpApiSwagger.layer(SynthApi, { path: "/docs" }), MetricsRouteLive, CorsLive),
  // The access log is the problem-details wrapper's own line per response.
  { middleware: withProblemDetails, disableLogger: true }
)
