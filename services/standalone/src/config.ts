import { Config } from "effect"

/** PostgreSQL replaces the embedded read-model database when DATABASE_URL is set. */
export const usesEmbeddedReadModels = Config.option(Config.Redacted("DATABASE_URL")).pipe(
  Config.map((url) => url._tag === "None")
)
