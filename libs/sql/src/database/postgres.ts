import { PgClient } from "@effect/sql-pg"
import type { SqlClient, SqlError } from "@effect/sql"
import { Config, type ConfigError, type Layer, type Redacted } from "effect"

/** The read-model database on PostgreSQL (the distributed runtime). */
export const layerPostgres = (
  url: Redacted.Redacted
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError.SqlError> => PgClient.layer({ url })

export const layerPostgresFromConfig: Layer.Layer<
  PgClient.PgClient | SqlClient.SqlClient,
  ConfigError.ConfigError | SqlError.SqlError
> = PgClient.layerConfig({ url: Config.redacted("DATABASE_URL") })
