import { describe, expect, it } from "@effect/vitest"
import { type EventEnvelope, Topics } from "@synth/contracts"
import { EventLog, layerKafka } from "@synth/eventlog"
import { kafkaTestSettings } from "@synth/eventlog/testing"
import { Context, Effect, Fiber, Layer, Redacted, Schedule, type Scope } from "effect"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { freshPostgresDatabase } from "../testing/layerPostgresTest.ts"

const childScript = path.join(import.meta.dirname, "..", "testing", "projectUntilKilled.ts")
const aggregates = Array.from({ length: 25 }, (_, index) => `aggregate-${index}`)

const loginFailed = (aggregateId: string): EventEnvelope => ({
  eventId: crypto.randomUUID() as EventEnvelope["eventId"],
  type: "user.login-failed",
  version: 1,
  aggregateId,
  occurredAt: new Date().toISOString(),
  actor: "anonymous",
  correlationId: crypto.randomUUID(),
  causationId: null,
  payload: { reason: "wrong_password" }
})

/** Environment for the child; `undefined` removes a variable this process has. */
type Settings = Readonly<Record<string, string | undefined>>

interface ChildRun {
  /** "applied" lines: applies the child began, committed or not. */
  readonly applied: number
  readonly lastLine: string
}

/**
 * Runs the projector child in `mode`. With `killAfter`, SIGKILLs it a random few milliseconds after its
 * `killAfter`-th apply began, which lands inside a batch's transaction; without, waits for it to exit.
 */
const runChild = (env: Settings, mode: "follow" | "report", killAfter?: number) =>
  Effect.callback<ChildRun, Error>((resume) => {
    const child = spawn(process.execPath, [childScript, mode], {
      env: Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, value]) => value !== undefined)),
      stdio: ["ignore", "pipe", "pipe"]
    })
    let applied = 0
    let pending = ""
    let lastLine = ""
    let errors = ""
    let killing = false
    child.stdout.on("data", (chunk: Buffer) => {
      const lines = (pending + chunk.toString("utf8")).split("\n")
      pending = lines.pop() ?? ""
      for (const line of lines) {
        if (line === "applied") applied += 1
        else if (line.startsWith("{")) lastLine = line
      }
      if (killAfter === undefined || killing || applied < killAfter) return
      killing = true
      setTimeout(() => child.kill("SIGKILL"), Math.random() * 10)
    })
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString("utf8")))
    child.on("exit", (code, signal) => {
      const expected = killAfter === undefined ? code === 0 : signal === "SIGKILL"
      resume(
        expected
          ? Effect.succeed({ applied, lastLine })
          : Effect.fail(new Error(`the projector child (${mode}) ended with ${signal ?? code}: ${errors.slice(-4000)}`))
      )
    })
    return Effect.sync(() => child.kill("SIGKILL"))
  })

const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "projector-kafka-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

/**
 * Appends while the projector is killed and restarted three times, then lets a last one catch up: every event is
 * counted exactly once, although kills landed inside batches whose applies were then rolled back and redone.
 */
const killRepeatedly = (database: Effect.Effect<Settings, unknown, Scope.Scope>) =>
  Effect.gen(function*() {
    const kafka = yield* kafkaTestSettings
    const env = { ...kafka, ...(yield* database) }
    const log = Context.get(
      yield* Layer.build(
        layerKafka({ brokers: kafka.KAFKA_BROKERS!.split(","), topicPrefix: kafka.KAFKA_TOPIC_PREFIX!, topics: [Topics.user.name] })
      ),
      EventLog
    )
    const appended = new Map<string, number>()
    const appendEvents = (count: number) =>
      Effect.suspend(() => {
        const keys = Array.from({ length: count }, () => aggregates[Math.floor(Math.random() * aggregates.length)]!)
        const [first, ...rest] = keys.map((key) => ({ topic: Topics.user.name, envelope: loginFailed(key) }))
        return log.append([first!, ...rest]).pipe(
          Effect.tap(() => Effect.sync(() => keys.forEach((key) => appended.set(key, (appended.get(key) ?? 0) + 1))))
        )
      })
    // A backlog, so the first runs get large batches (one transaction each), then a steady trickle throughout.
    yield* Effect.forEach(Array.from({ length: 20 }), () => appendEvents(200), { discard: true })
    let trickling = true
    const trickle = yield* appendEvents(20).pipe(
      Effect.repeat({ schedule: Schedule.spaced("100 millis"), while: () => trickling }),
      Effect.forkChild
    )

    let applied = 0
    for (let round = 0; round < 3; round++) {
      applied += (yield* runChild(env, "follow", 200 + Math.floor(Math.random() * 800))).applied
    }
    // Stopped, not interrupted: an interrupted append may be stored without being counted here.
    trickling = false
    yield* Fiber.join(trickle)
    const final = yield* runChild(env, "report")
    applied += final.applied

    const total = [...appended.values()].reduce((sum, count) => sum + count, 0)
    expect(JSON.parse(final.lastLine)).toEqual(Object.fromEntries(appended))
    // Applies that were begun but rolled back by a kill were begun again: the kills landed inside batches.
    expect(applied).toBeGreaterThan(total)
  }).pipe(Effect.scoped)

describe("projector runtime on Kafka", () => {
  it.live("kill -9 mid-batch, three times: every event is projected exactly once (PostgreSQL read models)", () =>
    killRepeatedly(Effect.map(freshPostgresDatabase, (url) => ({ DATABASE_URL: Redacted.value(url) }))), 240_000)

  it.live("kill -9 mid-batch, three times: every event is projected exactly once (embedded read models on disk)", () =>
    killRepeatedly(Effect.map(tempDir, (dataDir) => ({ DATA_DIR: dataDir, DATABASE_URL: undefined }))), 240_000)
})
