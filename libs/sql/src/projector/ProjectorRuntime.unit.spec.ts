import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type EventEnvelope, Topics } from "@synth/contracts"
import { type AppendRecord, EventLog, EventLogMemory } from "@synth/eventlog"
import { Effect, Layer, Logger, Ref, Stream } from "effect"
import { layerMigrations, migrationSet } from "../migrations/migrations.ts"
import { layerEmbeddedTest } from "../testing/layerEmbeddedTest.ts"
import { applyBatch } from "./applyBatch.ts"
import { cursorKey, makeCursors } from "./cursors.ts"
import type { CatchUpProgress } from "./catchUp.ts"
import { ProjectorRuntime } from "./ProjectorRuntime.ts"
import { type AnyProjection, makeProjection } from "./Projection.ts"

const testMigrations = migrationSet("projector_test", {
  "0001_registrations": Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE test_registered_users (user_id uuid PRIMARY KEY, email text NOT NULL, registered_at text NOT NULL)`
    yield* sql`CREATE TABLE test_registration_count (id integer PRIMARY KEY, total integer NOT NULL)`
  })
})

// Deliberately not idempotent by itself (a plain insert and an increment): only the cursor keeps redelivered
// events from counting twice, which is what these tests check.
const countRegistrations = (sql: SqlClient.SqlClient, userId: string, email: string, at: string) =>
  Effect.zipRight(
    sql`INSERT INTO test_registered_users (user_id, email, registered_at) VALUES (${userId}, ${email}, ${at})`,
    sql`INSERT INTO test_registration_count (id, total) VALUES (1, 1)
      ON CONFLICT (id) DO UPDATE SET total = test_registration_count.total + 1`
  )

const registrations = makeProjection({
  name: "test_registrations",
  topics: [Topics.user.name],
  tables: ["test_registered_users", "test_registration_count"],
  apply: (event, meta) =>
    Effect.gen(function*() {
      if (event.type !== "user.registered") return
      const sql = yield* SqlClient.SqlClient
      yield* countRegistrations(sql, event.payload.userId, event.payload.email, meta.envelope.occurredAt)
    })
})

const envelope = (type: string, aggregateId: string, payload: unknown): EventEnvelope => ({
  eventId: crypto.randomUUID() as EventEnvelope["eventId"],
  type,
  version: 1,
  aggregateId,
  occurredAt: new Date().toISOString(),
  actor: "anonymous",
  correlationId: crypto.randomUUID(),
  causationId: null,
  payload
})

const registration = (email: string): AppendRecord => {
  const userId = crypto.randomUUID()
  return { topic: Topics.user.name, envelope: envelope("user.registered", userId, { userId, email, passwordHash: "x" }) }
}

const append = (first: AppendRecord, ...rest: ReadonlyArray<AppendRecord>) =>
  Effect.flatMap(EventLog, (log) => log.append([first, ...rest]))

const snapshot = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return {
    users: yield* sql`SELECT user_id, email, registered_at FROM test_registered_users ORDER BY email`,
    count: yield* sql`SELECT total FROM test_registration_count`
  }
})

/** Runs `effect` with a logger that records "LEVEL message" lines instead of printing them. */
const capturingLogs = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      lines.push(`${logLevel.label} ${[message].flat().join(" ")}`)
    })
    const result = yield* effect.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)))
    return { result, lines }
  })

const logLayer = EventLogMemory.layerMemory({ partitions: 2 })

/** A fresh database with the test tables, the runtime over `projections`, and the given log. */
const environment = (projections: ReadonlyArray<AnyProjection>, log: Layer.Layer<EventLog> = logLayer) =>
  ProjectorRuntime.layer(projections).pipe(
    Layer.provideMerge(layerMigrations([testMigrations])),
    Layer.provideMerge(Layer.merge(layerEmbeddedTest, log))
  )

describe("ProjectorRuntime", () => {
  it.scopedLive("applies appended events in the background; waitFor resolves once they are applied", () =>
    Effect.gen(function*() {
      const projector = yield* ProjectorRuntime
      yield* projector.run
      const positions = yield* append(registration("a@example.com"), registration("b@example.com"), registration("c@example.com"))
      yield* projector.waitFor(positions, "5 seconds")
      expect(yield* snapshot).toMatchObject({ count: [{ total: 3 }] })
      // Nothing follows this topic, so there is nothing to wait for.
      yield* projector.waitFor([{ topic: "synth.elsewhere", partition: 0, offset: 7 }], "1 millis")
    }).pipe(Effect.provide(environment([registrations]))))

  it.scopedLive("waitFor fails with ProjectionTimeout naming what is still pending", () =>
    Effect.gen(function*() {
      const projector = yield* ProjectorRuntime
      const [position] = yield* append(registration("late@example.com"))
      const timeout = yield* Effect.flip(projector.waitFor([position!], "100 millis"))
      expect(timeout._tag).toBe("ProjectionTimeout")
      expect(timeout.pending).toEqual([{ projection: "test_registrations", position }])
    }).pipe(Effect.provide(environment([registrations]))))

  it.scopedLive("redelivered events change nothing", () =>
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

  it.scopedLive("skips event types the catalog does not know, with the cursor moving past them", () =>
    Effect.gen(function*() {
      const projector = yield* ProjectorRuntime
      const future = { topic: Topics.user.name, envelope: envelope("user.renamed", "some-user", { name: "x" }) }
      yield* append(future, registration("a@example.com"))
      const { lines, result } = yield* capturingLogs(projector.catchUp())
      expect(result).toMatchObject({ applied: { test_registrations: 2 } })
      expect(lines).toEqual(["WARN Skipping user.renamed@1: not in the event catalog"])
      expect(yield* snapshot).toMatchObject({ count: [{ total: 1 }] })
    }).pipe(Effect.provide(environment([registrations]))))

  it.scopedLive("treats a payload that does not decode for a known type as a defect", () =>
    Effect.gen(function*() {
      const projector = yield* ProjectorRuntime
      yield* append({ topic: Topics.user.name, envelope: envelope("user.registered", "someone", { email: 42 }) })
      const exit = yield* Effect.exit(projector.catchUp())
      expect(exit._tag === "Failure" && exit.cause._tag).toBe("Die")
    }).pipe(Effect.provide(environment([registrations]))))

  it.scopedLive("a failing projection logs, backs off and retries instead of stopping", () =>
    Effect.gen(function*() {
      const attempts = yield* Ref.make(0)
      const flaky = makeProjection({
        ...registrations,
        apply: (event, meta) =>
          Effect.gen(function*() {
            const attempt = yield* Ref.updateAndGet(attempts, (n) => n + 1)
            if (attempt <= 2) return yield* Effect.fail(`flaky failure ${attempt}`)
            yield* registrations.apply(event, meta)
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

  it.scopedLive("rebuild reproduces identical rows, and the running followers carry on after it", () =>
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

  it.scopedLive("a follower whose cursor was moved back under it (another process rebuilt) starts over from it", () =>
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

  it.scopedLive("a new database caught up from the log equals the original", () =>
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
