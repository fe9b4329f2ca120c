import { SqlClient, type SqlConnection } from "effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect } from "effect"
import { makeReadModelTypes } from "./pgTypes.ts"

/**
 * @effect/sql-pg cancels an interrupted statement with a `CancelRequest` sent through a side connection. The
 * embedded database takes a single connection, held by the very statement being cancelled, so the cancel waits for
 * its 5 s timeout while the whole database stands still (measured with v3's node-postgres: every interrupt cost 5 s).
 * PGlite ignores cancellation anyway, so statements here always run to completion and interrupting a fiber waits for
 * its statement instead.
 */
const runToCompletion = (connection: SqlConnection.Connection): SqlConnection.Connection => ({
  execute: (sql, params, transformRows) => Effect.uninterruptible(connection.execute(sql, params, transformRows)),
  executeRaw: (sql, params) => Effect.uninterruptible(connection.executeRaw(sql, params)),
  executeValues: (sql, params) => Effect.uninterruptible(connection.executeValues(sql, params)),
  executeValuesUnprepared: (sql, params) => Effect.uninterruptible(connection.executeValuesUnprepared(sql, params)),
  executeUnprepared: (sql, params, transformRows) =>
    Effect.uninterruptible(connection.executeUnprepared(sql, params, transformRows)),
  // A cursor is closed by its finalizer, not cancelled, so streams stay interruptible.
  executeStream: (sql, params, transformRows) => connection.executeStream(sql, params, transformRows)
})

/**
 * A `SqlClient` over one connection to `host:port` whose statements cannot be interrupted. Statements and
 * transactions take the connection in turn, which keeps transactions exclusive on PGlite's single session.
 */
export const makeRunToCompletionClient = Effect.fn("makeRunToCompletionClient")(function*(host: string, port: number) {
  const pg = yield* PgClient.make({
    host,
    port,
    username: "postgres",
    database: "postgres",
    maxConnections: 1,
    types: makeReadModelTypes(),
    // Keep the one connection for the life of the client: a pool closing it when idle would reconnect, and a
    // reconnect that reaches the socket server before it has handled the old socket's close is refused (one slot).
    idleTimeout: Duration.days(1)
  })
  return yield* SqlClient.make({
    acquirer: Effect.map(pg.reserve, runToCompletion),
    compiler: PgClient.makeCompiler(),
    driver: "pg",
    spanAttributes: [["db.system.name", "postgresql"], ["server.address", host], ["server.port", port]]
  })
})
