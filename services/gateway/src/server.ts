import { NodeHttpServer } from "@effect/platform-node"
import { Config, Duration, Effect, Layer } from "effect"
import { guardedServer } from "./http/node/guardedServer.ts"

export const ServerConfig = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(8000)),
  /** Loopback unless deliberately exposed; the container image sets 0.0.0.0. */
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  /** A request whose body sends nothing for this long is answered 408 and its connection closed. */
  bodyIdleTimeout: Config.duration("BODY_IDLE_TIMEOUT").pipe(Config.withDefault(Duration.seconds(30)))
})

/**
 * The gateway's HTTP server on PORT and HOST: 503 until the API is attached, 400 for multipart without a boundary,
 * 408 for a stalled body (http/node/guardedServer.ts).
 */
export const HttpServerLive = Layer.unwrapEffect(
  Effect.map(ServerConfig, ({ bodyIdleTimeout, host, port }) =>
    NodeHttpServer.layer(guardedServer({ bodyIdleTimeoutMs: Duration.toMillis(bodyIdleTimeout) }), { host, port })
  )
)
