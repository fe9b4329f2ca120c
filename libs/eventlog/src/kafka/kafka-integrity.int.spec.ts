import { describe, expect, it } from "@effect/vitest"
import type { EventEnvelope } from "@synth/contracts"
import { Effect, Layer, Stream } from "effect"
import { EventLog } from "../EventLog.ts"
import { verifyChains } from "../integrity/verifyChains.ts"
import { testEnvelope } from "../testing/fixtures.ts"
import { layerKafka, readRawKafka } from "./kafka.ts"
import { produceForeignRecord, testKafkaBrokers, uniqueKafkaPrefix } from "./testing.ts"

const topic = "audit"
const ofType = (type: string, n: number): EventEnvelope => ({ ...testEnvelope(`agg-${n % 4}`, n), type })

/** Appends through one log instance (one chain per producer), then closes it. */
const appendThrough = (options: { readonly brokers: ReadonlyArray<string>; readonly prefix: string }, envelopes: ReadonlyArray<ReadonlyArray<EventEnvelope>>) =>
  Effect.gen(function*() {
    const log = yield* EventLog
    for (const batch of envelopes) {
      yield* log.append(batch.map((envelope) => ({ topic, envelope })) as [{ topic: string; envelope: EventEnvelope }])
    }
  }).pipe(Effect.provide(Layer.fresh(layerKafka({ brokers: options.brokers, topicPrefix: options.prefix, topics: [topic], partitions: 3 }))))

const rawLog = (brokers: ReadonlyArray<string>, prefix: string) =>
  Stream.runCollect(readRawKafka({ brokers, topicPrefix: prefix, topics: [topic] })).pipe(
    Effect.scoped
  )

describe("Kafka log seals", () => {
  it.live("chains per producer and log instance, contiguous over partitions; duplicates consume nothing; a restart opens a new chain", () =>
    Effect.gen(function*() {
      const brokers = yield* testKafkaBrokers
      const prefix = uniqueKafkaPrefix()
      const first = ofType("user.registered", 0)
      yield* appendThrough({ brokers, prefix }, [
        [first, ofType("generator.started", 1), ofType("user.logged-in", 2)],
        [first, ofType("user.logged-in", 3)],
        [ofType("user.logged-in", 4), ofType("user.logged-in", 4 + 1)]
      ])
      yield* appendThrough({ brokers, prefix }, [[ofType("user.logged-in", 6)]])

      const records = yield* rawLog(brokers, prefix)
      expect(records).toHaveLength(7)
      const report = verifyChains(records)
      expect(report.ok).toBe(true)
      const summary = report.chains.map((chain) => [chain.chain.split("/")[0], chain.events, chain.head?.sequence]).sort()
      expect(summary).toEqual([["gateway", 1, 1], ["gateway", 5, 5], ["generation", 1, 1]])
      for (const chain of report.chains) expect(chain.chain).toMatch(/^[a-z]+\/[0-9a-f]{8}-[0-9a-f]{4}-7/)
    }), { timeout: 120_000 })

  it.live("a forged copy produced directly to the topic is reported as altered at its offset", () =>
    Effect.gen(function*() {
      const brokers = yield* testKafkaBrokers
      const prefix = uniqueKafkaPrefix()
      yield* appendThrough({ brokers, prefix }, [Array.from({ length: 6 }, (_, n) => ofType("user.logged-in", n))])
      const stored = yield* rawLog(brokers, prefix)
      const original = stored.find((record) => record.text.includes(`"n":3`))!
      const forged = original.text.replace(`"n":3`, `"n":7`)
      const forgedOffset = yield* produceForeignRecord({
        brokers,
        topic: `${prefix}${topic}`,
        partition: original.partition,
        key: "forged",
        value: forged
      })

      const report = verifyChains(yield* rawLog(brokers, prefix))
      expect(report.ok).toBe(false)
      expect(report.chains).toHaveLength(1)
      expect(report.chains[0]?.problem).toMatchObject({
        kind: "altered",
        topic,
        partition: original.partition,
        offset: forgedOffset
      })
    }), { timeout: 120_000 })
})
