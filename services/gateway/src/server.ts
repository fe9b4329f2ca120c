import { NodeHttpServer } from "@effect/platform-node"
import { Config, Effect, Layer } from "effect"
import { createServer } from "node:http"

export const ServerConfig = Config.all({
  port: Config.Port("PORT").pipe(Config.withDefault(8000)),
  /** Loopback unless deliberately exposed; the container image sets 0.0.0.0. */
  host: Config.String("HOST").pipe(Config.withDefault("127.0.0.1"))
})

/** The gateway's HTTP server on PORT and HOST. */
export const HttpServerLive = Layer.unwrap(
  Effect.map(ServerConfig, ({ host, port }) => NodeHttpServer.layer(createServer, { host, port }))
)
