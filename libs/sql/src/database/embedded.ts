import * as Reactivity from "effect/reactivity/Reactivity"
import { PGlite } from "@electric-sql/pglite"
import { PGLiteSocketServer } from "@electric-sql/pglite-socket"
import { SqlClient, type SqlError } from "effect/sql"
import { Data, Effect, Layer } from "effect"
import { mkdir } from "node:fs/promises"
import { makeRunToCompletionClient } from "./runToCompletion.ts"

export class EmbeddedDatabaseError extends Data.TaggedError("EmbeddedDatabaseError")<{
  readonly reason: string
  readonly cause?: unknown
}> {}

export interface EmbeddedOptions {
  /** Where the database lives; in memory when absent (tests). */
  readonly dataDir?: string | undefined
  /** A `dumpDataDir` tarball to start from instead of running initdb (~4 s): test fixtures. */
  readonly loadDataDir?: Blob | undefined
}

const openPglite = ({ dataDir, loadDataDir }: EmbeddedOptions) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        if (dataDir !== undefined) await mkdir(dataDir, { recursive: true })
        return await PGlite.create({
          ...(dataDir === undefined ? {} : { dataDir }),
          ...(loadDataDir === undefined ? {} : { loadDataDir })
        })
      },
      catch: (cause) =>
        new EmbeddedDatabaseError({
          reason: `Could not open the embedded read-model database ${dataDir ?? "in memory"}: ${String(cause)}`,
          cause
        })
    }),
    // Closing flushes PGlite's state into the data dir.
    (db) => Effect.promise(() => db.close())
  )

/** PGlite speaks the PostgreSQL protocol through this server, so the same driver serves PGlite and PostgreSQL. */
const serveOnLoopback = (db: PGlite) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        // Port 0: the OS picks a free port, so several databases (tests, tools) never collide.
        const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0 })
        await server.start()
        return server
      },
      catch: (cause) =>
        new EmbeddedDatabaseError({ reason: `Could not serve the embedded database: ${String(cause)}`, cause })
    }),
    (server) => Effect.promise(() => server.stop())
  ).pipe(Effect.map((server) => Number(server.getServerConn().split(":").at(-1))))

/**
 * The embedded read-model database: PGlite, reached through @effect/sql-pg over a loopback socket with one
 * connection (PGlite is a single session). Everything closes with the layer's scope, the client first.
 */
export const layerEmbedded = (
  options: EmbeddedOptions = {}
): Layer.Layer<SqlClient.SqlClient, EmbeddedDatabaseError | SqlError.SqlError> =>
  Layer.effect(
    SqlClient.SqlClient,
    Effect.gen(function*() {
      const db = yield* openPglite(options)
      const port = yield* serveOnLoopback(db)
      return yield* makeRunToCompletionClient("127.0.0.1", port)
    })
  ).pipe(Layer.provide(Reactivity.layer))
