import { PGlite } from "@electric-sql/pglite"
import { describe, expect, it } from "@effect/vitest"
import type { EventEnvelope } from "@synth/contracts"
import { Effect, Stream } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { makeEmbedded, readRawEmbedded } from "./embedded.ts"
import { verifyChains } from "./integrity/verifyChains.ts"
import { testEnvelope } from "./testing/fixtures.ts"

const ofType = (type: string, n: number): EventEnvelope => ({ ...testEnvelope(`agg-${n % 3}`, n), type })

const rawLog = (dataDir: string) => Stream.runCollect(readRawEmbedded(dataDir))

const seals = (records: ReadonlyArray<{ readonly text: string }>) =>
  records.map((record) => (JSON.parse(record.text) as typeof EventEnvelope.Encoded).integrity)

const withDataDir = <A, E>(use: (dataDir: string) => Effect.Effect<A, E>) =>
  Effect.acquireUseRelease(
    Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "eventlog-integrity-"))),
    use,
    (dataDir) => Effect.promise(() => fs.rm(dataDir, { recursive: true, force: true }))
  )

describe("embedded log seals", () => {
  it.effect("each producer's events form a contiguous chain; duplicates consume nothing; the head survives reopening", () =>
    withDataDir((dataDir) =>
      Effect.gen(function*() {
        const registered = ofType("user.registered", 0)
        yield* Effect.scoped(Effect.gen(function*() {
          const log = yield* makeEmbedded({ dataDir })
          yield* log.append([
            { topic: "users", envelope: registered },
            { topic: "datasets", envelope: ofType("dataset.ingested", 1) },
            { topic: "users", envelope: ofType("user.logged-in", 2) }
          ])
          yield* log.append([
            { topic: "users", envelope: registered },
            { topic: "datasets", envelope: ofType("dataset.uploaded", 3) }
          ])
        }))
        yield* Effect.scoped(Effect.gen(function*() {
          const log = yield* makeEmbedded({ dataDir })
          yield* log.append([{ topic: "users", envelope: ofType("user.logged-in", 4) }])
          yield* log.append([{ topic: "datasets", envelope: registered }])
        }))

        const records = yield* Effect.scoped(rawLog(dataDir))
        expect(records).toHaveLength(5)
        const byChain = (chain: string) =>
          seals(records).filter((seal) => seal?.chain === chain).map((seal) => seal?.sequence).sort()
        expect(byChain("gateway")).toEqual([1, 2, 3, 4])
        expect(byChain("ingest")).toEqual([1])
        const report = verifyChains(records)
        expect(report.ok).toBe(true)
        expect(report.chains.map((chain) => [chain.chain, chain.events, chain.head?.sequence])).toEqual([
          ["gateway", 4, 4],
          ["ingest", 1, 1]
        ])
      })
    ))

  it.effect("one byte changed in one stored event (through SQL) fails verification at exactly that event", () =>
    withDataDir((dataDir) =>
      Effect.gen(function*() {
        const envelopes = Array.from({ length: 8 }, (_, n) => ofType(n % 2 === 0 ? "user.logged-in" : "generator.started", n))
        yield* Effect.scoped(Effect.gen(function*() {
          const log = yield* makeEmbedded({ dataDir })
          for (const envelope of envelopes) yield* log.append([{ topic: "log", envelope }])
        }))
        const target = envelopes[4]!
        yield* Effect.promise(async () => {
          const database = await PGlite.create({ dataDir })
          try {
            await database.query(
              `UPDATE events SET envelope = replace(envelope::text, '"n":4', '"n":5')::json WHERE event_id = $1`,
              [target.eventId]
            )
          } finally {
            await database.close()
          }
        })
        const report = verifyChains(yield* Effect.scoped(rawLog(dataDir)))
        expect(report.ok).toBe(false)
        expect(report.chains.map((chain) => [chain.chain, chain.problem])).toEqual([
          ["gateway", expect.objectContaining({ kind: "altered", offset: 4, sequence: 3, eventId: target.eventId })],
          ["generation", null]
        ])
      })
    ))

  it.effect("the raw reader pages through more records than one query returns, over several topics", () =>
    withDataDir((dataDir) =>
      Effect.gen(function*() {
        yield* Effect.scoped(Effect.gen(function*() {
          const log = yield* makeEmbedded({ dataDir })
          for (let batch = 0; batch < 23; batch++) {
            const envelopes = Array.from({ length: 100 }, (_, index) => ofType("generator.progressed", batch * 100 + index))
            yield* log.append([
              { topic: batch % 2 === 0 ? "even" : "odd", envelope: envelopes[0]! },
              ...envelopes.slice(1).map((envelope) => ({ topic: batch % 2 === 0 ? "even" : "odd", envelope }))
            ])
          }
        }))
        const records = yield* Effect.scoped(rawLog(dataDir))
        expect(records).toHaveLength(2300)
        expect(new Set(records.map((record) => `${record.topic}@${record.offset}`)).size).toBe(2300)
        const report = verifyChains(records)
        expect(report.ok).toBe(true)
        expect(report.chains.map((chain) => [chain.chain, chain.events, chain.head?.sequence])).toEqual([["generation", 2300, 2300]])
      })
    ), { timeout: 120_000 })

  it.effect("the raw reader refuses a log a server holds open", () =>
    withDataDir((dataDir) =>
      Effect.scoped(Effect.gen(function*() {
        yield* makeEmbedded({ dataDir })
        const failure = yield* Effect.flip(Effect.scoped(rawLog(dataDir)))
        expect(failure._tag).toBe("EventLogError")
      }))
    ))
})
