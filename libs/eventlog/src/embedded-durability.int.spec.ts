import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ConfigProvider, Effect, Layer } from "effect"
import { layerEmbedded, layerEmbeddedConfig } from "./embedded.ts"
import { EventLog, EventLogError, type StoredEvent } from "./EventLog.ts"
import { payloadN, readAll, testEnvelope, uniqueTopic } from "./testing/fixtures.ts"

const writerScript = path.join(import.meta.dirname, "testing", "appendUntilKilled.ts")
const durabilityTopics = ["durability.orders", "durability.users"]

const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "eventlog-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

/** Runs the writer until it acknowledged `acknowledgements` events, SIGKILLs it, returns what it acknowledged. */
const appendUntilKilled = (dataDir: string, acknowledgements: number) =>
  Effect.callback<ReadonlyArray<string>, Error>((resume) => {
    const child = spawn(process.execPath, [writerScript, dataDir, ...durabilityTopics], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    let errors = ""
    const acknowledged = () => output.split("\n").slice(0, -1)
    let killing = false
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8")
      if (killing || acknowledged().length < acknowledgements) return
      killing = true
      // A random delay lands the kill anywhere: inside a transaction, between commit and print, between appends.
      setTimeout(() => child.kill("SIGKILL"), Math.random() * 10)
    })
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString("utf8")))
    child.on("exit", (code, signal) =>
      resume(
        signal === "SIGKILL"
          ? Effect.succeed(acknowledged())
          : Effect.fail(new Error(`the writer stopped on its own (${signal ?? code}): ${errors}`))
      ))
    return Effect.sync(() => child.kill("SIGKILL"))
  })

const withLog = <A, E>(dataDir: string, use: Effect.Effect<A, E, EventLog>) =>
  Effect.provide(use, layerEmbedded({ dataDir }))

describe("embedded event log on disk", () => {
  it.effect("keeps every acknowledged append through repeated kill -9, offsets gapless", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const acknowledged: Array<string> = []
      // Two kills: the second writer opens a log that was just recovered from a crash and keeps appending to it.
      for (let round = 0; round < 2; round++) {
        acknowledged.push(...(yield* appendUntilKilled(dataDir, 200)))
      }
      expect(acknowledged.length).toBeGreaterThanOrEqual(400)

      const stored = yield* withLog(dataDir, Effect.forEach(durabilityTopics, readAll)).pipe(Effect.map((all) => all.flat()))
      const storedIds = new Set<string>(stored.map((event) => event.envelope.eventId))
      expect(acknowledged.filter((eventId) => !storedIds.has(eventId))).toEqual([])
      expect(storedIds.size).toBe(stored.length)
      for (const topic of durabilityTopics) {
        const offsets = stored.filter((event) => event.topic === topic).map((event) => event.offset)
        expect(offsets).toEqual(offsets.map((_, index) => index))
      }
    }), { timeout: 30_000 })

  it.effect("continues after a restart: positions, cursors and idempotency survive close and reopen", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const topic = uniqueTopic("restart")
      const group = uniqueTopic("group")
      const first = Array.from({ length: 10 }, (_, n) => testEnvelope("agg", n))

      const before = yield* withLog(
        dataDir,
        Effect.gen(function*() {
          const log = yield* EventLog
          const positions = yield* log.append([
            { topic, envelope: first[0]! },
            ...first.slice(1).map((envelope) => ({ topic, envelope }))
          ])
          const stopAtThree = (event: StoredEvent) => (event.offset === 3 ? Effect.fail("stop") : Effect.void)
          yield* log.consume({ group, topics: [topic], handle: stopAtThree }).pipe(Effect.flip)
          return positions
        })
      )

      const after = yield* withLog(
        dataDir,
        Effect.gen(function*() {
          const log = yield* EventLog
          expect(yield* log.endOffsets(topic)).toEqual([{ topic, partition: 0, offset: 10 }])
          expect(yield* log.committedOffsets(group, topic)).toEqual([{ topic, partition: 0, offset: 3 }])
          expect(yield* log.append([{ topic, envelope: first[4]! }])).toEqual([before[4]])
          const more = yield* log.append([{ topic, envelope: testEnvelope("agg", 10) }, {
            topic,
            envelope: testEnvelope("agg", 11)
          }])
          return { more, stored: yield* readAll(topic) }
        })
      )
      expect(after.more.map((position) => position.offset)).toEqual([10, 11])
      expect(after.stored.map(payloadN)).toEqual(Array.from({ length: 12 }, (_, n) => n))
    }), { timeout: 30_000 })

  it.effect("keeps the log in DATA_DIR/eventlog when configured from the environment", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const configured = layerEmbeddedConfig.pipe(
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { DATA_DIR: dataDir } })))
      )
      yield* Layer.build(configured)
      expect(fs.existsSync(path.join(dataDir, "eventlog", "PG_VERSION"))).toBe(true)
    }), { timeout: 30_000 })

  it.effect("refuses a second open of a directory that is in use", () =>
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      yield* Layer.build(layerEmbedded({ dataDir }))
      const error = yield* Layer.build(layerEmbedded({ dataDir })).pipe(Effect.flip)
      expect(error).toBeInstanceOf(EventLogError)
      expect(error.reason).toContain("in use by this process")
    }), { timeout: 30_000 })
})
