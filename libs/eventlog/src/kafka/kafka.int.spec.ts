import { describe, expect, it, layer } from "@effect/vitest"
import { allTopicNames } from "@synth/contracts"
import { ConfigProvider, Context, Effect, Fiber, Layer, Ref, Schedule } from "effect"
import { Admin, ConfigResourceTypes, Producer, stringSerializers } from "@platformatic/kafka"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { layerFromConfig } from "../config.ts"
import { EventLog, type StoredEvent } from "../EventLog.ts"
import { eventLogContract } from "../testing/contract.ts"
import { payloadN, readAll, testEnvelope, uniqueTopic, waitUntilCommitted } from "../testing/fixtures.ts"
import { layerKafka } from "./kafka.ts"
import { kafkaTestSettings, layerKafkaForTests, testKafkaBrokers, uniqueKafkaPrefix } from "./testing.ts"

eventLogContract("Kafka, 3 partitions", () => layerKafkaForTests({ partitions: 3 }))

/** The broker's minimum session timeout (group.min.session.timeout.ms): the shortest a test can ask for. */
const sessionTimeoutMillis = 6_000

layer(layerKafkaForTests({ sessionTimeout: sessionTimeoutMillis, heartbeatInterval: "1 second" }), {
  excludeTestServices: true
})("Kafka consumer groups", (it) => {
  it.effect(
    "keep a member whose handler outlasts the session timeout: the event is neither taken from it nor redelivered",
    () =>
      Effect.gen(function*() {
        const log = yield* EventLog
        const topic = uniqueTopic("long-handler")
        const group = uniqueTopic("group")
        yield* log.append([{ topic, envelope: testEnvelope("job", 0) }, { topic, envelope: testEnvelope("job", 1) }])
        const handled = yield* Ref.make<ReadonlyArray<number>>([])
        // Event 0 is the model training: 2.5 session timeouts long.
        const handle = (event: StoredEvent) =>
          Ref.update(handled, (so) => [...so, payloadN(event)]).pipe(
            Effect.andThen(payloadN(event) === 0 ? Effect.sleep(sessionTimeoutMillis * 2.5) : Effect.void)
          )
        const first = yield* Effect.forkChild(log.consume({ group, topics: [topic], handle }))
        yield* Ref.get(handled).pipe(Effect.repeat({ until: (so) => so.length > 0, schedule: Schedule.spaced("50 millis") }))
        // A second member joins while the first is busy: the rebalance must wait for the first, not expel it.
        yield* Effect.sleep("2 seconds")
        const second = yield* Effect.forkChild(log.consume({ group, topics: [topic], handle }))
        yield* waitUntilCommitted(group, topic, { every: "100 millis", within: "45 seconds" })
        // A redelivery of event 0 to either member would show up within this time.
        yield* Effect.sleep("3 seconds")
        yield* Fiber.interrupt(first)
        yield* Fiber.interrupt(second)
        expect(yield* Ref.get(handled)).toEqual([0, 1])
      }),
    60_000
  )
})

describe("Kafka adapter", () => {
  it.live("creates the registry's topics with the configured partitions, unlimited retention and log-append time", () =>
    Effect.gen(function*() {
      const brokers = yield* testKafkaBrokers
      const prefix = uniqueKafkaPrefix()
      yield* Layer.build(layerKafka({ brokers, topicPrefix: prefix, partitions: 3 }))
      const admin = yield* Effect.acquireRelease(
        Effect.sync(() => new Admin({ clientId: "synth-test-admin", bootstrapBrokers: [...brokers] })),
        (admin) => Effect.promise(() => admin.close())
      )
      const names = allTopicNames.map((name) => `${prefix}${name}`)
      const metadata = yield* Effect.promise(() => admin.metadata({ topics: names }))
      expect([...metadata.topics].map(([name, topic]) => [name, topic.partitionsCount]).sort()).toEqual(
        names.map((name) => [name, 3]).sort()
      )
      const configs = yield* Effect.promise(() =>
        admin.describeConfigs({
          includeSynonyms: false,
          resources: names.map((name) => ({ resourceType: ConfigResourceTypes.TOPIC, resourceName: name }))
        })
      )
      expect(configs).toHaveLength(names.length)
      for (const resource of configs) {
        const value = (name: string) => resource.configs.find((entry) => entry.name === name)?.value
        expect([value("retention.ms"), value("retention.bytes"), value("message.timestamp.type")]).toEqual([
          "-1",
          "-1",
          "LogAppendTime"
        ])
      }
    }).pipe(Effect.scoped), 60_000)

  it.live("dates an event by when the broker appended it, not by the clock of whoever produced it", () =>
    Effect.gen(function*() {
      const brokers = yield* testKafkaBrokers
      const prefix = uniqueKafkaPrefix()
      const topic = uniqueTopic("append-time")
      const log = Context.get(yield* Layer.build(layerKafka({ brokers, topicPrefix: prefix, topics: [topic] })), EventLog)
      const producer = yield* Effect.acquireRelease(
        Effect.sync(() =>
          new Producer({ clientId: "synth-test-clock", bootstrapBrokers: [...brokers], serializers: stringSerializers })
        ),
        (producer) => Effect.promise(() => producer.close(true))
      )
      const before = Date.now()
      yield* Effect.promise(() =>
        producer.send({
          messages: [{
            topic: `${prefix}${topic}`,
            key: "agg",
            value: JSON.stringify(testEnvelope("agg", 0)),
            timestamp: BigInt(Date.UTC(2000, 0, 1))
          }]
        })
      )
      const [stored] = yield* readAll(topic).pipe(Effect.provideService(EventLog, log))
      // The broker runs on this machine: its clock and this one agree to well within a second.
      expect(Date.parse(stored!.appendedAt)).toBeGreaterThanOrEqual(before - 1_000)
      expect(Date.parse(stored!.appendedAt)).toBeLessThanOrEqual(Date.now() + 1_000)
    }).pipe(Effect.scoped), 60_000)

  it.live("is chosen by configuration: Kafka when KAFKA_BROKERS is set, the embedded log otherwise", () =>
    Effect.gen(function*() {
      const dataDir = yield* Effect.acquireRelease(
        Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "eventlog-config-"))),
        (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
      )
      const partitionsWith = (settings: Record<string, string>) =>
        Effect.flatMap(EventLog, (log) => log.partitions(uniqueTopic("configured"))).pipe(
          Effect.provide(
            layerFromConfig.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(settings))))
          )
        )
      const kafka = yield* kafkaTestSettings
      expect(yield* partitionsWith({ ...kafka, KAFKA_PARTITIONS: "2", DATA_DIR: dataDir })).toBe(2)
      expect(fs.existsSync(path.join(dataDir, "eventlog"))).toBe(false)
      expect(yield* partitionsWith({ DATA_DIR: dataDir })).toBe(1)
      expect(fs.existsSync(path.join(dataDir, "eventlog"))).toBe(true)
    }).pipe(Effect.scoped), 60_000)
})
