import { Config } from "effect"

export const ServerConfig = Config.all({
  port: Config.port("PORT").pipe(Config.withDefault(8000)),
  /** Loopback by default: the embedded runtime is one person's service until it is deliberately exposed. */
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1"))
})

/** PostgreSQL replaces the embedded read-model database when DATABASE_URL is set. */
export const usesEmbeddedReadModels = Config.option(Config.redacted("DATABASE_URL")).pipe(
  Config.map((url) => url._tag === "None")
)
