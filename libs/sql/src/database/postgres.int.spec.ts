import { SqlClient } from "effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { EventLog, EventLogMemory } from "@synth/eventlog"
import { ConfigProvider, Effect, Layer, Redacted } from "effect"
import { layerMigrations, runMigrations } from "../migrations/migrations.ts"
import { ProjectorRuntime } from "../projector/ProjectorRuntime.ts"
import { freshPostgresDatabase, layerPostgresTest } from "../testing/layerPostgresTest.ts"
import { append, registration, registrations, snapshot, testMigrations } from "../testing/projectorFixtures.ts"
import { readModelContract } from "../testing/readModelContract.ts"
import { layerFromConfig } from "./config.ts"
import { layerPostgres } from "./postgres.ts"

readModelContract("PostgreSQL", () => layerPostgresTest)

const databaseName = (url: Redacted.Redacted) => new URL(Redacted.value(url)).pathname.slice(1)

/** What the distributed runtime adds on PostgreSQL: several processes share one read-model database. */
describe("read models on PostgreSQL", () => {
  it.live("layerFromConfig connects to the database DATABASE_URL names", () =>
    Effect.gen(function*() {
      const url = yield* freshPostgresDatabase
      const [row] = yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ name: string }>`SELECT current_database() AS name`)
        .pipe(
          Effect.provide(layerFromConfig),
          Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { DATABASE_URL: Redacted.value(url) } })))
        )
      expect(row?.name).toBe(databaseName(url))
    }))

  it.live("replicas starting together on an empty database apply each migration exactly once", () =>
    Effect.gen(function*() {
      const url = yield* freshPostgresDatabase
      // Connected first, so the three runs really overlap (as when every service of a fresh deployment starts).
      const clients = yield* Effect.forEach([1, 2, 3], () => Layer.build(layerPostgres(url)))
      const replicas = yield* Effect.forEach(
        clients,
        (client) => runMigrations([testMigrations]).pipe(Effect.provide(client)),
        { concurrency: "unbounded" }
      )
      const applied = (owner: string) => replicas.flatMap((replica) => replica[owner] ?? [])
      expect(applied("projector")).toEqual(["0001_projection_cursors"])
      expect(applied("projector_test")).toEqual(["0001_registrations"])
    }))

  it.live("replicas projecting one log into one database apply every event exactly once", () =>
    Effect.gen(function*() {
      const url = yield* freshPostgresDatabase
      const log = Layer.succeed(EventLog, yield* EventLogMemory.makeMemory({ partitions: 3 }))
      const replica = () =>
        ProjectorRuntime.layer([registrations]).pipe(
          Layer.provideMerge(layerMigrations([testMigrations])),
          Layer.provideMerge(Layer.merge(layerPostgres(url), log))
        )
      const first = yield* Layer.build(replica())
      const second = yield* Layer.build(replica())
      const runtimes = [first, second].map((context) => Effect.provide(ProjectorRuntime, context))
      for (const runtime of runtimes) yield* Effect.flatMap(runtime, (projector) => projector.run)

      const emails = Array.from({ length: 30 }, (_, index) => `user${String(index).padStart(2, "0")}@example.com`)
      const positions = yield* Effect.forEach(emails, (email) => append(registration(email))).pipe(
        Effect.map((batches) => batches.flat()),
        Effect.provide(log)
      )
      for (const runtime of runtimes) yield* Effect.flatMap(runtime, (projector) => projector.waitFor(positions, "10 seconds"))

      const { count, users } = yield* snapshot.pipe(Effect.provide(first))
      expect(count).toEqual([{ total: emails.length }])
      expect(users.map((user) => user.email)).toEqual(emails)
    }))
})
