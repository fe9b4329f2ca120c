import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Cause, ConfigProvider, Effect, Fiber, Layer } from "effect"
import { existsSync } from "node:fs"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { migrationSet, runMigrations } from "../migrations/migrations.ts"
import { layerEmbeddedTest } from "../testing/layerEmbeddedTest.ts"
import { dropEmbeddedDatabase, layerFromConfig } from "./config.ts"

const notes = migrationSet("notes", {
  "0001_notes": Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE notes (id integer PRIMARY KEY, body text)`),
  "0002_note_tags": Effect.flatMap(SqlClient.SqlClient, (sql) => sql`ALTER TABLE notes ADD COLUMN tag text`)
})
// Numbers from 0001 like `notes`: owners do not share a numbering.
const labels = migrationSet("labels", {
  "0001_labels": Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE labels (name text PRIMARY KEY)`)
})

const withDataDir = (dataDir: string) =>
  Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DATA_DIR", dataDir]])))

/** Opens the database the configuration points at, runs `use` on it and closes it; also returns the time to open. */
const session = <A, E>(dataDir: string, use: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.suspend(() => {
    const started = performance.now()
    return Effect.sync(() => performance.now() - started).pipe(
      Effect.flatMap((openMillis) => Effect.map(use, (result) => ({ result, openMillis }))),
      Effect.provide(layerFromConfig.pipe(Layer.provide(withDataDir(dataDir))))
    )
  })

describe("embedded read-model database", () => {
  it.live("persists in DATA_DIR/readmodels, applies migrations once per owner, and drops", () =>
    Effect.gen(function*() {
      const dataDir = yield* Effect.promise(() => mkdtemp(join(tmpdir(), "synth-sql-")))

      const fresh = yield* session(
        dataDir,
        Effect.gen(function*() {
          const applied = yield* runMigrations([notes, labels])
          yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO notes (id, body, tag) VALUES (1, 'kept', 'a')`)
          return applied
        })
      )
      expect(fresh.result).toEqual({
        projector: ["0001_projection_cursors"],
        notes: ["0001_notes", "0002_note_tags"],
        labels: ["0001_labels"]
      })
      expect(existsSync(join(dataDir, "readmodels"))).toBe(true)

      const warm = yield* session(
        dataDir,
        Effect.gen(function*() {
          const applied = yield* runMigrations([notes, labels])
          const rows = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT id, body, tag FROM notes`)
          return { applied, rows }
        })
      )
      expect(warm.result.applied).toEqual({ projector: [], notes: [], labels: [] })
      expect(warm.result.rows).toEqual([{ id: 1, body: "kept", tag: "a" }])
      yield* Effect.logInfo(
        `embedded open: fresh dir ${fresh.openMillis.toFixed(0)} ms, warm dir ${warm.openMillis.toFixed(0)} ms`
      )

      const dropped = yield* dropEmbeddedDatabase.pipe(Effect.provide(withDataDir(dataDir)))
      expect(dropped).toBe(join(dataDir, "readmodels"))
      expect(existsSync(dropped)).toBe(false)
    }), 60_000)

  it.live("rejects an owner given twice", () =>
    Effect.gen(function*() {
      const cause = yield* runMigrations([notes, notes]).pipe(Effect.provide(layerEmbeddedTest), Effect.cause)
      expect(Cause.pretty(cause)).toContain('migration owner "notes" is given twice')
    }))

  it.live("keeps transactions exclusive: a statement outside waits and never sees uncommitted rows", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE items (id integer PRIMARY KEY)`
      const rolledBack = yield* Effect.fork(
        sql.withTransaction(
          Effect.gen(function*() {
            yield* sql`INSERT INTO items VALUES (1)`
            yield* Effect.sleep("200 millis")
            return yield* Effect.fail("roll back")
          })
        ).pipe(Effect.exit)
      )
      yield* Effect.sleep("50 millis")
      const seen = yield* sql<{ count: string }>`SELECT count(*) FROM items`
      expect(seen).toEqual([{ count: "0" }])
      yield* Fiber.join(rolledBack)
    }).pipe(Effect.provide(layerEmbeddedTest)))

  it.live("interrupting a statement does not stall the database", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sleeping = yield* Effect.fork(sql`SELECT pg_sleep(0.3)`)
      yield* Effect.sleep("50 millis")
      const started = performance.now()
      yield* Fiber.interrupt(sleeping)
      yield* sql`SELECT 1`
      // node-postgres' cancel would have held the single connection for its 5 s timeout.
      expect(performance.now() - started).toBeLessThan(2_000)
    }).pipe(Effect.provide(layerEmbeddedTest)))
})
