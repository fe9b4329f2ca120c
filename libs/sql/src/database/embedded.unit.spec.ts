import { SqlClient } from "effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { existsSync } from "node:fs"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { migrationSet, runMigrations } from "../migrations/migrations.ts"
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
  ConfigProvider.layer(ConfigProvider.fromEnv({ env: { DATA_DIR: dataDir } }))

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
})
