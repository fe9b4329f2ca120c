import { SqlClient } from "effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Topics } from "@synth/contracts"
import { EventLog, EventLogMemory } from "@synth/eventlog"
import { Cause, Effect, Fiber, Layer, Logger, Ref, Stream } from "effect"
import { layerMigrations, migrationSet, runMigrations } from "../migrations/migrations.ts"
import { applyBatch } from "../projector/applyBatch.ts"
import type { CatchUpProgress } from "../projector/catchUp.ts"
import { cursorKey, makeCursors } from "../projector/cursors.ts"
import { ProjectorRuntime } from "../projector/ProjectorRuntime.ts"
import { type AnyProjection, makeBatchProjection, makeProjection } from "../projector/Projection.ts"
import { append, envelope, registration, registrations, snapshot, testMigrations } from "./projectorFixtures.ts"

/** Builds a fresh, empty read-model database each time the layer is built. */
export type MakeDatabase = () => Layer.Layer<SqlClient.SqlClient, unknown>

const notes = migrationSet("notes", {
  "0001_notes": Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE notes (id integer PRIMARY KEY, body text)`),
  "0002_note_tags": Effect.flatMap(SqlClient.SqlClient, (sql) => sql`ALTER TABLE notes ADD COLUMN tag text`)
})
// Numbers from 0001 like `notes`: owners do not share a numbering.
const labels = migrationSet("labels", {
  "0001_labels": Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE labels (name text PRIMARY KEY)`)
})

/** Runs `effect` with a logger that records "LEVEL message" lines instead of printing them. */
const capturingLogs = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      lines.push(`${logLevel.toUpperCase()} ${[message].flat().join(" ")}`)
    })
    const result = yield* effect.pipe(Effect.provide(Logger.layer([logger])))
    return { result, lines }
  })

const logLayer = EventLogMemory.layerMemory({ partitions: 2 })

/**
 * The behaviour every read-model database shows (embedded PGlite, PostgreSQL): migrations, transactions and the
 * projector runtime on top of them. `makeDatabase` gives each test a database of its own.
 */
export const readModelContract = (name: string, makeDatabase: MakeDatabase) =>
  describe(`read-model contract: ${name}`, () => {
    /** A fresh database with the test tables, the runtime over `projections`, and the given log. */
    const environment = (projections: ReadonlyArray<AnyProjection>, log: Layer.Layer<EventLog> = logLayer) =>
      ProjectorRuntime.layer(projections).pipe(
        Layer.provideMerge(layerMigrations([testMigrations])),
        Layer.provideMerge(Layer.merge(makeDatabase(), log))
      )

    describe("migrations", () => {
      it.live("applies each owner's migrations once, numbered per owner, and keeps what they made", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const fresh = yield* runMigrations([notes, labels])
          expect(fresh).toEqual({
            projector: ["0001_projection_cursors"],
            notes: ["0001_notes", "0002_note_tags"],
            labels: ["0001_labels"]
          })
          yield* sql`INSERT INTO notes (id, body, tag) VALUES (1, 'kept', 'a')`

          expect(yield* runMigrations([notes, labels])).toEqual({ projector: [], notes: [], labels: [] })
          expect(yield* sql`SELECT id, body, tag FROM notes`).toEqual([{ id: 1, body: "kept", tag: "a" }])
        }).pipe(Effect.provide(makeDatabase())))

      it.live("rejects an owner given twice", () =>
        Effect.gen(function*() {
          const cause = yield* runMigrations([notes, notes]).pipe(Effect.provide(makeDatabase()), Effect.sandbox, Effect.flip)
          expect(Cause.pretty(cause)).toContain('migration owner "notes" is given twice')
        }))
    })

    describe("transactions", () => {
      // Embedded: the statement waits for the single session; PostgreSQL: it runs beside the transaction. Either
      // way it must not see the transaction's rows.
      it.live("a statement outside a transaction never sees its uncommitted rows", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE items (id integer PRIMARY KEY)`
          const rolledBack = yield* Effect.forkChild(
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
        }).pipe(Effect.provide(makeDatabase())))

      it.live("interrupting a statement does not stall the database", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const sleeping = yield* Effect.forkChild(sql`SELECT pg_sleep(0.3)`)
          yield* Effect.sleep("50 millis")
          const started = performance.now()
          yield* Fiber.interrupt(sleeping)
          yield* sql`SELECT 1`
          // On the embedded database node-postgres' cancel would have held the single connection for its 5 s timeout.
          expect(performance.now() - started).toBeLessThan(2_000)
        }).pipe(Effect.provide(makeDatabase())))
    })

    describe("ProjectorRuntime", () => {
      it.live("applies appended events in the background; waitFor resolves once they are applied", () =>
        Effect.gen(function*() {
          const projector = yield* ProjectorRuntime
          yield* projector.run
          const positions = yield* append(registration("a@example.com"), registration("b@example.com"), registration("c@example.com"))
          yield* projector.waitFor(positions, "5 seconds")
          expect(yield* snapshot).toMatchObject({ count: [{ total: 3 }] })
          // Nothing follows this topic, so there is nothing to wait for.
          yield* projector.waitFor([{ topic: "synth.elsewhere", partition: 0, offset: 7 }], "1 millis")
        }).pipe(Effect.provide(environment([registrations]))))

      it.live("waitFor fails with ProjectionTimeout naming what is still pending", () =>
        Effect.gen(function*() {
          const projector = yield* ProjectorRuntime
          const [position] = yield* append(registration("late@example.com"))
          const timeout = yield* Effect.flip(projector.waitFor([position!], "100 millis"))
          expect(timeout._tag).toBe("ProjectionTimeout")
          expect(timeout.pending).toEqual([{ projection: "test_registrations", position }])
        }).pipe(Effect.provide(environment([registrations]))))

      it.live("waitFor skips a projection writers do not wait for; its readers await it caught up with the log", () =>
        Effect.gen(function*() {
          const projector = yield* ProjectorRuntime
          // Not running: nothing is applied until catchUp, so every wait below depends on `readYourWrites` alone.
          const positions = yield* append(registration("feed@example.com"), registration("other@example.com"))
          yield* projector.waitFor(positions, "1 millis")

          const late = yield* Effect.flip(projector.awaitCaughtUp(["test_registrations"], "100 millis"))
          expect(late._tag).toBe("ProjectionTimeout")
          expect(late._tag === "ProjectionTimeout" && late.pending.map((pending) => pending.projection)).toContain("test_registrations")
          expect(yield* Effect.flip(projector.awaitCaughtUp(["nope"], "1 millis"))).toMatchObject({ _tag: "UnknownProjection" })

          yield* projector.run
          yield* projector.awaitCaughtUp(["test_registrations"], "5 seconds")
          expect(yield* snapshot).toMatchObject({ count: [{ total: 2 }] })
        }).pipe(Effect.provide(environment([makeBatchProjection({ ...registrations, readYourWrites: false })]))))

      it.live("lag is the events each projection has not applied yet, per topic, over all partitions", () =>
        Effect.gen(function*() {
          const projector = yield* ProjectorRuntime
          const before = yield* projector.lag
          expect(before).toEqual([{ projection: "test_registrations", topic: Topics.user.name, events: 0 }])
          yield* append(registration("a@example.com"), registration("b@example.com"), registration("c@example.com"))
          expect(yield* projector.lag).toEqual([{ projection: "test_registrations", topic: Topics.user.name, events: 3 }])
          yield* projector.catchUp()
          expect(yield* projector.lag).toEqual(before)
        }).pipe(Effect.provide(environment([registrations]))))

      it.live("redelivered events change nothing", () =>
        Effect.gen(function*() {
          const projector = yield* ProjectorRuntime
          yield* append(registration("a@example.com"), registration("b@example.com"), registration("c@example.com"))
          yield* projector.catchUp()
          const before = yield* snapshot

          // The log hands every partition over again from offset 0, as after a crash before the commit.
          const sql = yield* SqlClient.SqlClient
          const log = yield* EventLog
          for (const partition of [0, 1]) {
            const events = yield* log.read({ topic: Topics.user.name, partition, fromOffset: 0, follow: false }).pipe(
              Stream.runCollect
            )
            const key = cursorKey(registrations.name, Topics.user.name, partition)
            const redelivered = yield* applyBatch(sql, makeCursors(sql), registrations, key, 0, [...events])
            expect(redelivered.applied).toBe(0)
          }
          expect(yield* projector.catchUp()).toMatchObject({ applied: { test_registrations: 0 } })
          expect(yield* snapshot).toEqual(before)
        }).pipe(Effect.provide(environment([registrations]))))

      it.live("skips event types the catalog does not know, with the cursor moving past them", () =>
        Effect.gen(function*() {
          const projector = yield* ProjectorRuntime
          const future = { topic: Topics.user.name, envelope: envelope("user.renamed", "some-user", { name: "x" }) }
          yield* append(future, registration("a@example.com"))
          const { lines, result } = yield* capturingLogs(projector.catchUp())
          expect(result).toMatchObject({ applied: { test_registrations: 2 } })
          expect(lines).toEqual(["WARN Skipping user.renamed@1: not in the event catalog"])
          expect(yield* snapshot).toMatchObject({ count: [{ total: 1 }] })
        }).pipe(Effect.provide(environment([registrations]))))

      it.live("treats a payload that does not decode for a known type as a defect", () =>
        Effect.gen(function*() {
          const projector = yield* ProjectorRuntime
          yield* append({ topic: Topics.user.name, envelope: envelope("user.registered", "someone", { email: 42 }) })
          const exit = yield* Effect.exit(projector.catchUp())
          expect(exit._tag === "Failure" && exit.cause.reasons.map((reason) => reason._tag)).toEqual(["Die"])
        }).pipe(Effect.provide(environment([registrations]))))

      /**
       * Registrations through a projection that fails its first `failures` tries (the runtime backs off 0.2 s, then
       * twice as long each time), with a follower that comes after it (for `afterFor` when given) and records the
       * count it sees at each event: the totals the follower saw, one per registration.
       */
      const totalsSeenByFollower = (failures: number, afterFor?: ReadonlyArray<string>) =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE test_seen_totals (total integer NOT NULL)`
          const attempts = yield* Ref.make(0)
          const slow = makeProjection({
            ...registrations,
            apply: (event, meta) =>
              Effect.gen(function*() {
                const attempt = yield* Ref.updateAndGet(attempts, (n) => n + 1)
                if (attempt <= failures) return yield* Effect.fail(`not yet (${attempt})`)
                yield* registrations.applyBatch([{ event, meta }])
              })
          })
          const follower = makeProjection({
            name: "test_follower",
            topics: [Topics.user.name],
            tables: ["test_seen_totals"],
            after: [registrations.name],
            ...(afterFor === undefined ? {} : { afterFor }),
            apply: () =>
              Effect.flatMap(SqlClient.SqlClient, (sql) =>
                sql`INSERT INTO test_seen_totals (total) SELECT coalesce(max(total), 0) FROM test_registration_count`)
          })
          yield* Effect.provide(
            Effect.gen(function*() {
              const projector = yield* ProjectorRuntime
              yield* projector.run
              const positions = yield* append(registration("a@example.com"), registration("b@example.com"), registration("c@example.com"))
              yield* projector.waitFor(positions, "20 seconds")
            }),
            ProjectorRuntime.layer([slow, follower])
          )
          const seen = yield* sql<{ total: number }>`SELECT total FROM test_seen_totals`
          return seen.map((row) => row.total)
        }).pipe(Effect.provide(Layer.provideMerge(layerMigrations([testMigrations]), Layer.merge(makeDatabase(), logLayer))))

      it.live("a projection that comes after another applies a batch only once the other has caught up with the log", () =>
        // Without `after`, the follower would apply the three events while the other backs off and see none counted.
        Effect.map(totalsSeenByFollower(2), (totals) => expect(totals).toEqual([3, 3, 3])))

      it.live("a projection that comes after another only for some event types does not wait for other batches", () =>
        // Four failures back off 0.2 + 0.4 + 0.8 + 1.6 s: a follower that waited would see every registration counted.
        Effect.map(totalsSeenByFollower(4, ["user.forgotten"]), (totals) => expect(totals).toEqual([0, 0, 0])))

      it.live("a projection that comes after an unknown one is a defect", () =>
        Effect.gen(function*() {
          const exit = yield* Effect.exit(
            Layer.build(ProjectorRuntime.layer([makeBatchProjection({ ...registrations, after: ["nowhere"] })]))
          )
          expect(exit._tag === "Failure" && exit.cause.reasons.map((reason) => reason._tag)).toEqual(["Die"])
        }).pipe(Effect.provide(Layer.provideMerge(layerMigrations([testMigrations]), Layer.merge(makeDatabase(), logLayer)))))

      it.live("a failing projection logs, backs off and retries instead of stopping", () =>
        Effect.gen(function*() {
          const attempts = yield* Ref.make(0)
          const flaky = makeProjection({
            ...registrations,
            apply: (event, meta) =>
              Effect.gen(function*() {
                const attempt = yield* Ref.updateAndGet(attempts, (n) => n + 1)
                if (attempt <= 2) return yield* Effect.fail(`flaky failure ${attempt}`)
                yield* registrations.applyBatch([{ event, meta }])
              })
          })
          const { lines } = yield* capturingLogs(
            Effect.gen(function*() {
              const projector = yield* ProjectorRuntime
              yield* projector.run
              const positions = yield* append(registration("a@example.com"))
              yield* projector.waitFor(positions, "10 seconds")
              expect(yield* snapshot).toMatchObject({ count: [{ total: 1 }] })
            }).pipe(Effect.provide(environment([flaky])))
          )
          expect(yield* Ref.get(attempts)).toBe(3)
          expect(lines.filter((line) => line.startsWith("ERROR"))).toEqual([
            "ERROR Projection test_registrations failed on synth.user; retrying",
            "ERROR Projection test_registrations failed on synth.user; retrying"
          ])
        }))

      it.live("rebuild reproduces identical rows, and the running followers carry on after it", () =>
        Effect.gen(function*() {
          const projector = yield* ProjectorRuntime
          yield* projector.run
          const positions = yield* append(registration("a@example.com"), registration("b@example.com"), registration("c@example.com"))
          yield* projector.waitFor(positions, "5 seconds")
          const before = yield* snapshot

          const summary = yield* projector.rebuild(["test_registrations"])
          expect(summary.applied).toEqual({ test_registrations: 3 })
          expect(yield* snapshot).toEqual(before)

          const later = yield* append(registration("d@example.com"))
          yield* projector.waitFor(later, "5 seconds")
          expect(yield* snapshot).toMatchObject({ count: [{ total: 4 }] })
          expect(yield* Effect.flip(projector.rebuild(["nope"]))).toMatchObject({ _tag: "UnknownProjection", names: ["nope"] })
        }).pipe(Effect.provide(environment([registrations]))))

      it.live("a follower whose cursor was moved back under it (another process rebuilt) starts over from it", () =>
        Effect.gen(function*() {
          const projector = yield* ProjectorRuntime
          yield* projector.run
          yield* projector.waitFor(yield* append(registration("a@example.com"), registration("b@example.com")), "5 seconds")
          const sql = yield* SqlClient.SqlClient
          yield* sql`TRUNCATE test_registered_users, test_registration_count`
          yield* sql`UPDATE projection_cursors SET next_offset = 0`

          yield* projector.waitFor(yield* append(registration("c@example.com")), "5 seconds")
          expect(yield* snapshot).toMatchObject({ count: [{ total: 3 }] })
        }).pipe(Effect.provide(environment([registrations], EventLogMemory.layerMemory({ partitions: 1 })))))

      it.live("a new database caught up from the log equals the original", () =>
        Effect.gen(function*() {
          const log = Layer.succeed(EventLog, yield* EventLogMemory.makeMemory({ partitions: 2 }))
          const original = yield* Effect.gen(function*() {
            const projector = yield* ProjectorRuntime
            yield* append(registration("a@example.com"), registration("b@example.com"))
            yield* append(registration("c@example.com"))
            yield* projector.catchUp()
            return yield* snapshot
          }).pipe(Effect.provide(environment([registrations], log)))

          const reported: Array<CatchUpProgress> = []
          const rebuilt = yield* Effect.gen(function*() {
            const projector = yield* ProjectorRuntime
            const summary = yield* projector.catchUp((progress) => Effect.sync(() => reported.push(progress)))
            expect(summary.applied).toEqual({ test_registrations: 3 })
            return yield* snapshot
          }).pipe(Effect.provide(environment([registrations], log)))

          expect(rebuilt).toEqual(original)
          expect(reported.at(0)).toEqual({ applied: 0, total: 3 })
          expect(reported.at(-1)).toEqual({ applied: 3, total: 3 })
        }))
    })
  })
