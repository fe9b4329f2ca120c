// `synth events verify` on Kafka (KAFKA_BROKERS set, as the distributed runtime configures it): events appended by
// the Kafka adapter verify; a copy of one produced straight to its topic with one byte changed fails at that copy.
import { describe, expect, it } from "@effect/vitest"
import type { EventEnvelope } from "@synth/contracts"
import { EventLogKafka } from "@synth/eventlog"
import { produceForeignRecord } from "@synth/eventlog/testing"
import { Effect, Stream } from "effect"
import { runSynth } from "../support/cli.ts"

const brokers = (process.env.KAFKA_BROKERS ?? "").split(",").filter((broker) => broker !== "")
const prefix = `e2e-verify-${crypto.randomUUID().slice(0, 8)}.`
const topic = "synth.user"

const envelope = (n: number): EventEnvelope => ({
  eventId: crypto.randomUUID() as EventEnvelope["eventId"],
  type: "user.logged-in",
  version: 1,
  aggregateId: `user-${n % 3}`,
  occurredAt: new Date().toISOString(),
  actor: "anonymous",
  correlationId: crypto.randomUUID(),
  causationId: null,
  payload: { n }
})

const verify = () =>
  runSynth(["events", "verify", "--json"], {
    env: { KAFKA_BROKERS: brokers.join(","), KAFKA_TOPIC_PREFIX: prefix },
    timeoutMs: 120_000
  })

interface Report {
  readonly ok: boolean
  readonly records: number
  readonly chains: ReadonlyArray<{ readonly chain: string; readonly problem: { readonly kind: string; readonly offset: number } | null }>
}

describe("synth events verify on Kafka", () => {
  it("verifies what the adapter appended, and fails at a tampered copy produced beside it", async () => {
    expect(brokers.length).toBeGreaterThan(0)
    await Effect.runPromise(
      Effect.scoped(Effect.gen(function*() {
        const log = yield* EventLogKafka.makeKafka({ brokers, topicPrefix: prefix })
        for (let n = 0; n < 5; n++) yield* log.append([{ topic, envelope: envelope(n) }])
      }))
    )

    const intact = await verify()
    expect(intact.code, intact.output).toBe(0)
    const before = JSON.parse(intact.stdout) as Report
    expect(before).toMatchObject({ ok: true, records: 5 })
    expect(before.chains.map((chain) => chain.chain)).toEqual([expect.stringMatching(/^gateway\/[0-9a-f-]{36}$/)])

    const [original] = await Effect.runPromise(
      Stream.runCollect(EventLogKafka.readRawKafka({ brokers, topicPrefix: prefix, topics: [topic] }).pipe(Stream.take(1))).pipe(
        Effect.scoped
      )
    )
    expect(original).toBeDefined()
    const copyOffset = await Effect.runPromise(produceForeignRecord({
      brokers,
      topic: `${prefix}${topic}`,
      partition: original!.partition,
      key: "copy",
      value: original!.text.replace(/"n":(\d)/, (_, digit: string) => `"n":${(Number(digit) + 1) % 10}`)
    }))

    const tampered = await verify()
    expect(tampered.code, tampered.output).toBe(1)
    const after = JSON.parse(tampered.stdout) as Report
    expect(after.ok).toBe(false)
    expect(after.chains[0]?.problem).toMatchObject({ kind: "altered", offset: copyOffset })
  }, 240_000)
})
