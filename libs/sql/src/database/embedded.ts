import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient, type SqlError } from "effect/sql"
import { Data, Effect, Layer } from "effect"
import { Worker } from "node:worker_threads"
import { createInThrowawayThread } from "@synth/eventlog/pglite-fresh"
import type { PgliteServerData, PgliteServerMessage } from "./pgliteServer.ts"
import { makeRunToCompletionClient } from "./runToCompletion.ts"

export class EmbeddedDatabaseError extends Data.TaggedError("EmbeddedDatabaseError")<{
  readonly reason: string
  readonly cause?: unknown
}> {}

const serverModule = new URL("./pgliteServer.ts", import.meta.url)

export interface EmbeddedOptions {
  /** Where the database lives; in memory when absent (tests). */
  readonly dataDir?: string | undefined
  /** A `dumpDataDir` tarball to start from instead of running initdb (~4 s): test fixtures. */
  readonly loadDataDir?: Blob | undefined
}

/** How long closing may take (flushing PGlite's state to disk) before the thread is ended anyway. */
const closeTimeoutMs = 30_000

const closeThread = (worker: Worker) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, closeTimeoutMs)
    const done = () => {
      clearTimeout(timer)
      resolve()
    }
    worker.once("message", (message: PgliteServerMessage) => message.kind === "closed" && done())
    worker.once("exit", done)
    worker.postMessage("close")
  }).then(() => worker.terminate()).then(() => undefined)

/**
 * PGlite in a thread of its own, serving the PostgreSQL protocol on a loopback port: the same driver serves PGlite
 * and PostgreSQL, and the database's work runs beside the event loop. The port is the layer's; closing flushes. A
 * fresh `dataDir` gets its database first from a thread that ends (@synth/eventlog/pglite-fresh).
 */
const serveInThread = ({ dataDir, loadDataDir }: EmbeddedOptions) =>
  Effect.acquireRelease(
    Effect.flatMap(
      Effect.tryPromise({
        try: async () => {
          if (loadDataDir !== undefined) return new Uint8Array(await loadDataDir.arrayBuffer())
          if (dataDir !== undefined) await createInThrowawayThread(dataDir)
          return undefined
        },
        catch: (error) =>
          new EmbeddedDatabaseError({
            reason: `Could not create the embedded read-model database in ${dataDir}: ${
              error instanceof Error ? error.message : String(error)
            }`,
            cause: error
          })
      }),
      (dump) =>
        Effect.callback<{ readonly worker: Worker; readonly port: number }, EmbeddedDatabaseError>((resume) => {
          const data: PgliteServerData = { dataDir, loadDataDir: dump }
          const worker = new Worker(serverModule, { workerData: data })
          const fail = (message: string) => {
            resume(Effect.fail(new EmbeddedDatabaseError({ reason: `Could not open the embedded read-model database ${dataDir ?? "in memory"}: ${message}` })))
            void worker.terminate()
          }
          worker.once("message", (message: PgliteServerMessage) =>
            message.kind === "serving" ? resume(Effect.succeed({ worker, port: message.port })) : message.kind === "failed" ? fail(message.message) : undefined)
          worker.once("error", (error) => fail(error instanceof Error ? error.message : String(error)))
          return Effect.sync(() => void worker.terminate())
        })
    ),
    ({ worker }) => Effect.promise(() => closeThread(worker))
  ).pipe(Effect.map(({ port }) => port))

/**
 * The embedded read-model database: PGlite in its own thread, reached through @effect/sql-pg over a loopback socket
 * with one connection (PGlite is a single session). Everything closes with the layer's scope, the client first.
 */
export const layerEmbedded = (
  options: EmbeddedOptions = {}
): Layer.Layer<SqlClient.SqlClient, EmbeddedDatabaseError | SqlError.SqlError> =>
  Layer.effect(
    SqlClient.SqlClient,
    Effect.gen(function*() {
      const port = yield* serveInThread(options)
      return yield* makeRunToCompletionClient("127.0.0.1", port)
    })
  ).pipe(Layer.provide(Reactivity.layer))
