import { type SqlClient, type SqlError } from "effect/sql"
import { Config, Effect, Layer, Option } from "effect"
import { rm } from "node:fs/promises"
import { join } from "node:path"
import { EmbeddedDatabaseError, layerEmbedded } from "./embedded.ts"
import { layerPostgres } from "./postgres.ts"

/** `${DATA_DIR}/readmodels`: the embedded read-model database's directory. */
export const readModelsDirectory: Config.Config<string> = Config.String("DATA_DIR").pipe(
  Config.withDefault("./data"),
  Config.map((dataDir) => join(dataDir, "readmodels"))
)

export const layerEmbeddedFromConfig: Layer.Layer<
  SqlClient.SqlClient,
  Config.ConfigError | EmbeddedDatabaseError | SqlError.SqlError
> = Layer.unwrap(Effect.map(readModelsDirectory, (dataDir) => layerEmbedded({ dataDir })))

/** The adapter is chosen by configuration only: PostgreSQL when DATABASE_URL is set, else the embedded database. */
export const layerFromConfig: Layer.Layer<
  SqlClient.SqlClient,
  Config.ConfigError | EmbeddedDatabaseError | SqlError.SqlError
> = Layer.unwrap(
  Effect.map(
    Config.option(Config.Redacted("DATABASE_URL")),
    Option.match({ onNone: () => layerEmbeddedFromConfig, onSome: layerPostgres })
  )
)

/**
 * Deletes the embedded read-model database (`synth replay`: every read model is rebuilt from the log afterwards).
 * Run it while no process has the database open. Returns the directory it removed.
 */
export const dropEmbeddedDatabase: Effect.Effect<string, Config.ConfigError | EmbeddedDatabaseError> =
  Effect.flatMap(readModelsDirectory, (directory) =>
    Effect.tryPromise({
      try: () => rm(directory, { recursive: true, force: true }),
      catch: (cause) =>
        new EmbeddedDatabaseError({
          reason: `Could not delete the read-model database in ${directory}: ${String(cause)}`,
          cause
        })
    }).pipe(Effect.as(directory)))
