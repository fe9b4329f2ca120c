import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { SynthApi } from "@synth/contracts"
import { Config, Context, Duration, Effect, Layer } from "effect"
import { OpenApi } from "effect/http-api"
import { makeServerGuards, type ServerGuards as Guards } from "./http/node/guardedServer.ts"
import { routeTemplateOf } from "./http/routeTemplates.ts"

export const ServerConfig = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(8000)),
  /** Loopback unless deliberately exposed; the container image sets 0.0.0.0. */
  host: Config.String("HOST").pipe(Config.withDefault("127.0.0.1")),
  /** A request whose body sends nothing for this long is answered 408 and its connection closed. */
  bodyIdleTimeout: Config.Duration("BODY_IDLE_TIMEOUT").pipe(Config.withDefault(Duration.seconds(30))),
  /** At shutdown, how long requests in flight may take to finish before their connections are closed. */
  shutdownGrace: Config.Duration("SHUTDOWN_GRACE").pipe(Config.withDefault(Duration.seconds(10)))
})

/**
 * The media types each route of the API takes as its body, from its OpenAPI description (so the contract is the one
 * place that says so): `[]` for a route without a body, undefined for a path or method the API does not have. The
 * request is matched to its route as the access log does it (routeTemplateOf).
 */
const bodyTypesOfApi = (): ((method: string, path: string) => ReadonlyArray<string> | undefined) => {
  const types = new Map<string, ReadonlyArray<string>>()
  for (const [path, operations] of Object.entries(OpenApi.fromApi(SynthApi).paths)) {
    const template = path.replace(/\{([^}]+)\}/g, ":$1")
    for (const [method, operation] of Object.entries(operations as Record<string, { readonly requestBody?: { readonly content?: Record<string, unknown> } }>)) {
      types.set(`${method.toUpperCase()} ${template}`, Object.keys(operation.requestBody?.content ?? {}))
    }
  }
  return (method, path) => types.get(`${method} ${routeTemplateOf(method, path)}`)
}

/** The HTTP server's guards (http/node/guardedServer.ts), for the drain at shutdown. */
export class ServerGuards extends Context.Service<ServerGuards, Guards>()("@synth/gateway/ServerGuards") {}

/**
 * The gateway's HTTP server on PORT and HOST: 503 until the API is attached, 400 for multipart without a boundary,
 * 408 for a stalled body; and its guards, for DrainOnShutdown.
 */
export const HttpServerLive = Layer.unwrap(
  Effect.map(ServerConfig, ({ bodyIdleTimeout, host, port }) => {
    const guards = makeServerGuards({ bodyIdleTimeoutMs: Duration.toMillis(bodyIdleTimeout), bodyTypesOf: bodyTypesOfApi() })
    return Layer.merge(NodeHttpServer.layer(guards.createServer, { host, port }), Layer.succeed(ServerGuards, guards))
  })
)

/**
 * Graceful shutdown of the HTTP side: stop taking requests and let those in flight finish within SHUTDOWN_GRACE.
 * Build it on top of everything else (`DrainOnShutdown.pipe(Layer.provide(app))`): its finalizer then runs first,
 * while the API, the services and the event log are all still there to answer.
 */
export const DrainOnShutdown = Layer.effectDiscard(
  Effect.gen(function* () {
    const guards = yield* ServerGuards
    const { shutdownGrace } = yield* ServerConfig
    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        yield* Effect.logInfo("shutting down: no new requests; waiting for those in flight", { graceMs: Duration.toMillis(shutdownGrace) })
        const cut = yield* Effect.promise(() => guards.drain(Duration.toMillis(shutdownGrace)))
        if (cut > 0) yield* Effect.logWarning("requests still in flight at the end of the shutdown grace were cut", { requests: cut })
      })
    )
  })
)
