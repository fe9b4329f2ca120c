import * as Reactivity from "effect/reactivity/Reactivity"
import { type SqlClient, type SqlError } from "effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Config, Effect, Layer, Redacted, type Scope } from "effect"
import { randomUUID } from "node:crypto"
import { layerPostgres } from "../database/postgres.ts"

const serverUrl = Config.Redacted("DATABASE_URL").pipe(
  Effect.mapError(() =>
    new Error(
      "DATABASE_URL is not set, so there is no PostgreSQL to test against. `npm test` starts one unless DATABASE_URL " +
        "is given (if it could not, its [postgres] lines above say why); for a single file, start one with " +
        "`npm run -s infra -- up postgres` and export the DATABASE_URL it prints."
    )), Effect.orDie
)

/**
 * A database of its own on the server DATABASE_URL points at (which needs the CREATEDB privilege), dropped with the
 * scope; its URL. Tests and test files running side by side never see each other's tables.
 */
export const freshPostgresDatabase: Effect.Effect<Redacted.Redacted, SqlError.SqlError, Scope.Scope> = Effect.gen(
  function*() {
    const url = yield* serverUrl
    const name = `synth_test_${randomUUID().replaceAll("-", "")}`
    const admin = yield* PgClient.make({ url, maxConnections: 1 }).pipe(Effect.provide(Reactivity.layer))
    yield* Effect.acquireRelease(
      admin`CREATE DATABASE ${admin(name)}`,
      // FORCE: a pool that did not close in time must not keep the database alive.
      () => Effect.orDie(admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`)
    )
    const databaseUrl = new URL(Redacted.value(url))
    databaseUrl.pathname = `/${name}`
    return Redacted.make(databaseUrl.toString())
  }
)

/** A fresh, empty PostgreSQL read-model database for each use of the layer. */
export const layerPostgresTest: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError.SqlError> = Layer.unwrap(Effect.map(freshPostgresDatabase, layerPostgres))
