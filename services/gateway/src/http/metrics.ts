import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { errorTypeUri } from "@synth/contracts"
import { prometheusContentType, scrape } from "@synth/observability"
import { ProjectorRuntime } from "@synth/sql"
import { Config, Effect, Metric, Option, Redacted } from "effect"
import { timingSafeEqual } from "node:crypto"
import { bearerTokenOf } from "./bearer.ts"

/**
 * METRICS_TOKEN: unset (the default), GET /metrics answers anyone who reaches it, the usual arrangement for a
 * Prometheus endpoint on a private network; set, it answers only `Authorization: Bearer <METRICS_TOKEN>` (for a
 * gateway whose port is reachable from outside), everything else gets 401.
 */
export const MetricsConfig = Config.all({
  token: Config.option(Config.Redacted("METRICS_TOKEN"))
})

/** Seconds from a request's arrival to its response, by method, route template and status. */
export const httpRequestDuration = Metric.histogram("http_request_duration_seconds", {
  boundaries: Metric.boundariesFromIterable([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]),
  description: "Duration of HTTP requests served by the gateway, from arrival to response, by method, route template and status."
})

const projectorLag = Metric.gauge("projector_lag_events", {
  description: "Events in the log that a projection has not applied yet (log end offsets minus its committed cursors), by projection and topic; computed at scrape time."
})

export const recordRequest = (method: string, route: string, status: number, seconds: number) =>
  Metric.update(
    Metric.withAttributes(httpRequestDuration, { method, route, status: String(status) }),
    seconds
  )

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

const unauthorized = HttpServerResponse.jsonUnsafe(
  {
    type: errorTypeUri("invalid_token"),
    title: "Invalid token",
    status: 401,
    code: "invalid_token",
    detail: "GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`."
  },
  { status: 401 }
)

/** GET /metrics: this process's metrics in the Prometheus text format, projector lag read fresh for each scrape. */
export const MetricsRouteLive = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const { token } = yield* MetricsConfig
    const projector = yield* ProjectorRuntime
    const refreshLag = projector.lag.pipe(
      Effect.flatMap((lags) =>
        Effect.forEach(
          lags,
          ({ events, projection, topic }) =>
            Metric.update(Metric.withAttributes(projectorLag, { projection, topic }), events),
          { discard: true }
        )
      ),
      // An unreachable log must not take the rest of the metrics down with it: the gauges keep their last values.
      Effect.catch((error) => Effect.logWarning("projector lag not measured: the event log did not answer", error.reason))
    )
    yield* router.add(
      "GET",
      "/metrics",
      Effect.gen(function* () {
        if (Option.isSome(token)) {
          const request = yield* HttpServerRequest.HttpServerRequest
          const given = bearerTokenOf(request.headers["authorization"])
          if (given === undefined || !sameSecret(given, Redacted.value(token.value))) return unauthorized
        }
        yield* refreshLag
        return HttpServerResponse.text(yield* scrape, { contentType: prometheusContentType })
      })
    )
  })
)
