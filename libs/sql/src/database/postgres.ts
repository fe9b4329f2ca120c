import { PgClient } from "@effect/sql-pg"
import { type SqlClient, type SqlError } from "effect/sql"
import { Config, Effect, Layer, type Redacted } from "effect"
import { makeReadModelTypes } from "./pgTypes.ts"

/** The read-model database on PostgreSQL (the distributed runtime). */
export const layerPostgres = (
  url: Redacted.Redacted
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError.SqlError> =>
  PgClient.layer({ url, types: makeReadModelTypes() })

export const layerPostgresFromConfig: Layer.Layer<
  PgClient.PgClient | SqlClient.SqlClient,
  Config.ConfigError | SqlError.SqlError
> = Layer.unwrap(Effect.map(Config.Redacted("DATABASE_URL"), layerPostgres))
