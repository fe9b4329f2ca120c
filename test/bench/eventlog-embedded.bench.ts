// Append throughput (single events, batches, concurrent appenders) and replay speed of the embedded event log, in
// memory and on disk, and the time to create and to reopen a data dir (within one process: the WebAssembly module is
// compiled already, so a fresh process adds its compile time to the first open).
import type { EventEnvelope } from "@synth/contracts"
import { EventLog, layerEmbedded } from "@synth/eventlog"
import { Effect, Layer, Stream } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

const singles = Number(process.env.BENCH_SINGLES ?? 1000)
const batches = Number(process.env.BENCH_BATCHES ?? 50)
const batchSize = Number(process.env.BENCH_BATCH_SIZE ?? 100)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8)
const reopens = Number(process.env.BENCH_ROUNDS ?? 3)

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const perSecond = (events: number, ms: number) => Math.round((events * 1000) / ms)

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const started = performance.now()
    const result = yield* effect
    return { result, ms: performance.now() - started }
  })

const topic = "bench.events"

// A few hundred bytes, like the service's request events.
const envelope = (n: number): EventEnvelope => ({
  eventId: crypto.randomUUID() as EventEnvelope["eventId"],
  type: "dataset.profile-requested",
  version: 1,
  aggregateId: `00000000-0000-4000-8000-${String(n % 50).padStart(12, "0")}`,
  occurredAt: new Date().toISOString(),
  actor: `user:${crypto.randomUUID()}`,
  correlationId: crypto.randomUUID(),
  causationId: null,
  payload: { n, columns: ["id", "name", "email", "age"], options: { sampleRows: 10_000, detectPii: true } }
})

const recordsOf = (count: number, n: number) => {
  const records = Array.from({ length: count }, (_, index) => ({ topic, envelope: envelope(n + index) }))
  return [records[0]!, ...records.slice(1)] as const
}

const replayAll = Effect.flatMap(EventLog, (log) =>
  log.read({ topic, partition: 0, fromOffset: 0, follow: false }).pipe(Stream.runCount))

const counting = (count: number) => Array.from({ length: count }, (_, n) => n)

const measure = (storage: string) =>
  Effect.gen(function*() {
    const log = yield* EventLog
    const single = yield* timed(Effect.forEach(counting(singles), (n) => log.append(recordsOf(1, n))))
    const batched = yield* timed(
      Effect.forEach(counting(batches), (n) => log.append(recordsOf(batchSize, n * batchSize)))
    )
    const concurrent = yield* timed(
      Effect.forEach(counting(singles), (n) => log.append(recordsOf(1, n)), { concurrency })
    )
    const replay = yield* timed(replayAll)
    console.log(JSON.stringify({
      bench: "eventlog-embedded.append",
      storage,
      singlePerSecond: perSecond(singles, single.ms),
      singleMsMean: +(single.ms / singles).toFixed(2),
      [`batch${batchSize}PerSecond`]: perSecond(batches * batchSize, batched.ms),
      [`concurrent${concurrency}SinglePerSecond`]: perSecond(singles, concurrent.ms),
      replayPerSecond: perSecond(replay.result, replay.ms),
      events: replay.result
    }))
  })

const openAndMeasure = (options: { readonly dataDir?: string }, storage: string) =>
  Effect.scoped(Effect.gen(function*() {
    const opened = yield* timed(Layer.build(layerEmbedded(options)))
    console.error(`${storage}: opened in ${Math.round(opened.ms)} ms`)
    yield* measure(storage).pipe(Effect.provide(opened.result))
  }))

const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "eventlog-bench-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

const program = Effect.gen(function*() {
  const dataDir = yield* tempDir
  yield* openAndMeasure({}, "memory")
  const created = yield* timed(Effect.scoped(Layer.build(layerEmbedded({ dataDir }))))
  yield* openAndMeasure({ dataDir }, "disk")
  const reopened: Array<number> = []
  for (let round = 0; round < reopens; round++) {
    reopened.push((yield* timed(Effect.scoped(Layer.build(layerEmbedded({ dataDir }))))).ms)
  }
  const events = yield* Effect.scoped(replayAll.pipe(Effect.provide(layerEmbedded({ dataDir }))))
  const bytes = fs.readdirSync(dataDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((total, entry) => total + fs.statSync(path.join(entry.parentPath, entry.name)).size, 0)
  console.log(JSON.stringify({
    bench: "eventlog-embedded.open",
    createMs: Math.round(created.ms),
    reopenMsMedian: Math.round(median(reopened)),
    events,
    dataDirMiB: +(bytes / 2 ** 20).toFixed(1)
  }))
})

Effect.runPromise(Effect.scoped(program)).catch((error) => {
  console.error(error)
  process.exit(1)
})
