import * as path from "node:path"
import { Config, Effect, Layer, Option, type Scope, Stream } from "effect"
import { EventLog, EventLogError } from "./EventLog.ts"
import { acquireDataDirLock } from "./internal/dataDirLock.ts"
import { makeDatabase } from "./internal/database.ts"
import { openPgliteThread } from "./internal/pgliteThread.ts"
import { fromStore } from "./internal/fromStore.ts"
import { makePgliteStore, type RawCursor, readRawBatch, schema } from "./internal/pgliteStore.ts"
import type { RawRecord } from "./integrity/verifyChains.ts"

export interface EmbeddedOptions {
  /** Where the log persists. Without it the log lives in memory: the same engine, for fast tests. */
  readonly dataDir?: string
}

const openPglite = (dataDir: string | undefined) =>
  Effect.tryPromise({
    try: () => openPgliteThread(dataDir),
    catch: (cause) =>
      new EventLogError({
        reason: `Cannot open the embedded event log${dataDir === undefined ? "" : ` in ${dataDir}`}: ${
          cause instanceof Error ? cause.message : String(cause)
        }`,
        cause
      })
  })

/** The durable log on PGlite, open for the life of the scope. Acknowledged appends survive kill -9. */
export const makeEmbedded = (options: EmbeddedOptions = {}): Effect.Effect<EventLog["Service"], EventLogError, Scope.Scope> =>
  Effect.gen(function*() {
    if (options.dataDir !== undefined) yield* acquireDataDirLock(options.dataDir)
    const database = yield* Effect.acquireRelease(
      Effect.flatMap(openPglite(options.dataDir), makeDatabase),
      (database) => Effect.ignore(database.close)
    )
    yield* database.transaction((query) => Effect.forEach(schema, (statement) => query(statement)))
    return yield* fromStore(makePgliteStore(database))
  }).pipe(Effect.withSpan("EventLog.openEmbedded", { attributes: { dataDir: options.dataDir ?? "memory" } }))

/** Records per query while walking the whole log raw. */
const rawBatchSize = 1000

/**
 * Every stored record of the log in `dataDir`, topic by topic in offset order, as the text stored: nothing is
 * decoded, so tampered bytes reach the caller instead of failing the read. Holds the directory's lock, so it fails
 * while a server has the log open.
 */
export const readRawEmbedded = (dataDir: string): Stream.Stream<RawRecord, EventLogError, Scope.Scope> =>
  Stream.unwrap(Effect.gen(function*() {
    yield* acquireDataDirLock(dataDir)
    const database = yield* Effect.acquireRelease(
      Effect.flatMap(openPglite(dataDir), makeDatabase),
      (database) => Effect.ignore(database.close)
    )
    yield* database.transaction((query) => Effect.forEach(schema, (statement) => query(statement)))
    const start: RawCursor = { topic: "", partition: -1, offset: -1 }
    return Stream.paginate<RawCursor, RawRecord, EventLogError, never>(start, (after) =>
      readRawBatch(database, after, rawBatchSize).pipe(Effect.map((rows) => {
        const last = rows.at(-1)
        return [
          rows,
          last === undefined || rows.length < rawBatchSize ? Option.none() : Option.some<RawCursor>(last)
        ] as const
      }))
    )
  }))

export const layerEmbedded = (options: EmbeddedOptions = {}): Layer.Layer<EventLog, EventLogError> =>
  Layer.effect(EventLog, makeEmbedded(options))

/** The embedded default of the standalone runtime: `${DATA_DIR}/eventlog`, DATA_DIR defaulting to ./data. */
export const layerEmbeddedConfig = Layer.unwrap(
  Config.String("DATA_DIR").pipe(
    Config.withDefault("./data"),
    Effect.map((dataDir) => layerEmbedded({ dataDir: path.join(dataDir, "eventlog") }))
  )
)
