// The audit read model on both read-model databases: the projection (idempotent, credentials redacted, the
// integrity seal kept), the repository's filters, pages and batched stream, and on PostgreSQL, where transactions
// run side by side, a reader that never sees a later position before an earlier one.
import { SqlClient } from "effect/sql"
import { expect, layer } from "@effect/vitest"
import { decodeDomainEvent, type EventEnvelope } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { layerEmbeddedTest } from "@synth/sql/testing"
import { layerPostgresTest } from "@synth/sql/testing/postgres"
import { type Duration, Effect, Fiber, Layer, Option, Stream } from "effect"
import { TestClock } from "effect/testing"
import { randomUUID } from "node:crypto"
import { AuditRepository } from "./AuditRepository.ts"
import { auditMigrations } from "./migrations.ts"
import { applyAuditEvents, forgottenValue, redactedValue } from "./projection.ts"

const migrated = Layer.effectDiscard(Effect.forEach(Object.values(auditMigrations), (migration) => migration, { discard: true }))

let offset = 0

const loggedIn = (userId: string, occurredAt: string, extra: Record<string, unknown> = {}): StoredEvent => {
  const envelope = {
    eventId: randomUUID(),
    type: "user.logged-in",
    version: 1,
    aggregateId: userId,
    occurredAt,
    actor: `user:${userId}`,
    correlationId: randomUUID(),
    causationId: null,
    payload: { userId, refreshTokenId: randomUUID(), familyId: randomUUID() },
    ...extra
  } as EventEnvelope
  return { topic: "synth.user", partition: 0, offset: offset++, key: userId, envelope, appendedAt: occurredAt }
}

const registered = (userId: string): StoredEvent => {
  const at = "2026-01-01T00:00:00.000Z"
  return {
    ...loggedIn(userId, at),
    envelope: {
      ...loggedIn(userId, at).envelope,
      type: "user.registered",
      payload: { userId, email: "ada@example.com", passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA" }
    }
  }
}

const forgotten = (userId: string): StoredEvent => {
  const at = "2026-01-03T00:00:00.000Z"
  return {
    ...loggedIn(userId, at),
    envelope: { ...loggedIn(userId, at).envelope, type: "user.forgotten", payload: { userId } }
  }
}

const apply = (stored: StoredEvent) =>
  Effect.flatMap(Effect.orDie(decodeDomainEvent(stored.envelope)), (event) => applyAuditEvents([{ event, meta: stored }]))

const applyInTransaction = (stored: StoredEvent) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql.withTransaction(apply(stored)))

/** it.effect runs on the TestClock; these waits are real time, for real transactions to overlap. */
const wallClockSleep = (duration: Duration.Input) => TestClock.withLive(Effect.sleep(duration))

const minute = (index: number) => new Date(Date.UTC(2026, 0, 2, 0, index)).toISOString()

const contract = (name: string, database: Layer.Layer<SqlClient.SqlClient, unknown>) =>
  layer(Layer.provideMerge(AuditRepository.layer, Layer.provideMerge(migrated, database)), { timeout: 120_000 })(name, (it) => {
    it.effect("stops showing the email a registration logged in clear (v1) once its user is forgotten, and only theirs", () =>
      Effect.gen(function*() {
        const repository = yield* AuditRepository
        const userId = randomUUID()
        const other = randomUUID()
        yield* Effect.orDie(Effect.all([apply(registered(userId)), apply(registered(other))]))
        yield* Effect.orDie(apply(forgotten(userId)))
        const page = yield* repository.page({ aggregateId: userId }, 0, 10)
        expect(page.items.map((event) => event.type)).toEqual(["user.registered", "user.forgotten"])
        expect(page.items[0]!.payload).toEqual({ userId, email: forgottenValue, passwordHash: redactedValue })
        expect(page.items[0]!.version).toBe(1)
        const kept = yield* repository.page({ aggregateId: other }, 0, 10)
        expect(kept.items[0]!.payload).toEqual({ userId: other, email: "ada@example.com", passwordHash: redactedValue })
      }))

    it.effect("stores a redelivered event once, its password hash redacted, its integrity seal as it came", () =>
      Effect.gen(function*() {
        const repository = yield* AuditRepository
        const userId = randomUUID()
        const registration = registered(userId)
        const seal = { algorithm: "hmac-sha256", keyId: "k1", previous: null, digest: "abc" }
        const sealed = loggedIn(userId, minute(0), { integrity: seal })
        yield* Effect.orDie(Effect.all([apply(registration), apply(registration), apply(sealed), apply(sealed)]))
        const page = yield* repository.page({ aggregateId: userId }, 0, 10)
        expect(page.items.map((event) => event.type)).toEqual(["user.registered", "user.logged-in"])
        expect(page.items[0]!.payload).toEqual({ userId, email: "ada@example.com", passwordHash: redactedValue })
        expect(page.items[0]!.integrity).toBeNull()
        expect(page.items[1]!.integrity).toEqual(seal)
        expect(page.items[1]).toMatchObject({
          event_id: sealed.envelope.eventId,
          topic: "synth.user",
          partition: 0,
          offset: sealed.offset,
          occurred_at: minute(0),
          actor: `user:${userId}`
        })
        expect(page.items[1]!.position).toBeGreaterThan(page.items[0]!.position)
      }))

    it.effect("filters, pages and streams in batches: the stream equals the pages' concatenation", () =>
      Effect.gen(function*() {
        const repository = yield* AuditRepository
        const users = [randomUUID(), randomUUID()]
        const events = Array.from({ length: 1_203 }, (_, index) => loggedIn(users[index % 2]!, minute(index % 60)))
        yield* Effect.orDie(Effect.forEach(events, apply, { discard: true }))
        const first = users[0]!
        const filter = { aggregateId: first, since: minute(10), until: minute(50) }
        const expected = events
          .filter((event) => event.key === first && event.envelope.occurredAt >= minute(10) && event.envelope.occurredAt < minute(50))
          .map((event) => event.envelope.eventId)

        const pages: Array<string> = []
        let after = 0
        while (true) {
          const page = yield* repository.page(filter, after, 7)
          pages.push(...page.items.map((event) => event.event_id))
          if (Option.isNone(page.next)) break
          after = page.next.value
        }
        expect(pages).toEqual(expected)

        const streamed = yield* Stream.runCollect(repository.stream(filter, 0, undefined))
        expect(streamed.map((event) => event.event_id)).toEqual(expected)
        const everyOfBoth = yield* Stream.runCount(repository.stream({ types: ["user.logged-in"], actor: `user:${users[1]!}` }, 0, undefined))
        expect(everyOfBoth).toBe(601)
        const limited = yield* Stream.runCount(repository.stream({ aggregateId: first }, 0, 550))
        expect(limited).toBe(550)

        const positions = (yield* repository.page({ aggregateId: first }, 0, 5)).items.map((event) => event.position)
        const ranged = yield* repository.page({ fromPosition: positions[1]!, toPosition: positions[3]! }, 0, 50)
        expect(ranged.items.map((event) => event.position)).toEqual(
          (yield* repository.page({}, positions[1]! - 1, 50)).items.map((event) => event.position).filter((position) => position <= positions[3]!)
        )
      }))
  })

contract("audit read model on PGlite", layerEmbeddedTest)
contract("audit read model on PostgreSQL", layerPostgresTest)

layer(Layer.provideMerge(AuditRepository.layer, Layer.provideMerge(migrated, layerPostgresTest)), { timeout: 60_000 })(
  "audit feed under concurrent transactions (PostgreSQL)",
  (it) => {
    it.effect("a later position never becomes visible before an earlier one commits", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const repository = yield* AuditRepository
        const userId = randomUUID()
        // The first transaction draws its position, then stays open; the second starts after it and commits first.
        const slow = yield* Effect.forkChild(
          sql.withTransaction(Effect.andThen(apply(loggedIn(userId, minute(0))), wallClockSleep("600 millis")))
        )
        yield* wallClockSleep("150 millis")
        const fast = yield* Effect.forkChild(applyInTransaction(loggedIn(userId, minute(1))))
        yield* wallClockSleep("200 millis")
        const during = (yield* repository.page({ aggregateId: userId }, 0, 10)).items.map((event) => event.position)
        yield* Effect.orDie(Fiber.join(slow))
        yield* Effect.orDie(Fiber.join(fast))
        const after = (yield* repository.page({ aggregateId: userId }, 0, 10)).items.map((event) => event.position)
        expect(after).toHaveLength(2)
        expect(during).toEqual(after.slice(0, during.length))
      }))
  }
)
