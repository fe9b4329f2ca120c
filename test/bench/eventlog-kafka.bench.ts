// The Kafka adapter of the event log: appends per second (one event per call, batches, concurrent callers), events
// projected per second through the projector runtime into a read model, and the latency from `append` to the event
// being visible in the read model (the projector committed it), p50/p99, idle and under a steady append load.
//
// Servers: KAFKA_BROKERS and DATABASE_URL when set, else a broker and a PostgreSQL started here through
// deploy/local/infra.ts (their start times are reported too). Read models are measured on PostgreSQL (the
// distributed runtime) and on in-memory PGlite (the embedded database).
//
// Knobs: BENCH_SINGLES (1000), BENCH_BATCHES (50), BENCH_BATCH_SIZE (100), BENCH_CONCURRENCY (64),
// BENCH_PROJECTED (20000), BENCH_LATENCY_SAMPLES (300), BENCH_LOAD_PER_SECOND (500), BENCH_KAFKA_PROVISION=1 (also
// time deploy/local/kafka.ts itself: a cold start from an empty jar cache, downloads included, then warm starts).
import { SqlClient } from "effect/sql"
import { type EventEnvelope, Topics } from "@synth/contracts"
import { EventLog, layerKafka, type Position } from "@synth/eventlog"
import { layerEmbedded, layerMigrations, layerPostgres, makeProjection, migrationSet, ProjectorRuntime } from "@synth/sql"
// The vitest-free part of @synth/sql/testing.
import { freshPostgresDatabase } from "@synth/sql/testing/postgres"
import { Context, Effect, Fiber, Layer, References, Schedule } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
// eslint-disable-next-line @nx/enforce-module-boundaries -- deploy/local is test tooling, not a library
import { infraCacheDir } from "../../deploy/local/cacheDir.ts"
// eslint-disable-next-line @nx/enforce-module-boundaries -- deploy/local is test tooling, not a library
import { down, up } from "../../deploy/local/infra.ts"
// eslint-disable-next-line @nx/enforce-module-boundaries -- deploy/local is test tooling, not a library
import { start as startKafka } from "../../deploy/local/kafka.ts"

const singles = Number(process.env.BENCH_SINGLES ?? 1000)
const batches = Number(process.env.BENCH_BATCHES ?? 50)
const batchSize = Number(process.env.BENCH_BATCH_SIZE ?? 100)
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64)
const projected = Number(process.env.BENCH_PROJECTED ?? 20_000)
const latencySamples = Number(process.env.BENCH_LATENCY_SAMPLES ?? 300)
const loadPerSecond = Number(process.env.BENCH_LOAD_PER_SECOND ?? 500)
const provision = process.env.BENCH_KAFKA_PROVISION === "1"

const topic = Topics.user.name
const aggregates = Array.from({ length: 200 }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`)

// A few hundred bytes, like the service's events; a catalog type, so the projector applies it.
const envelope = (n: number): EventEnvelope => ({
  eventId: crypto.randomUUID() as EventEnvelope["eventId"],
  type: "user.login-failed",
  version: 1,
  aggregateId: aggregates[n % aggregates.length]!,
  occurredAt: new Date().toISOString(),
  actor: "anonymous",
  correlationId: crypto.randomUUID(),
  causationId: null,
  payload: { reason: "wrong_password" }
})

const recordsOf = (count: number, n: number) => {
  const records = Array.from({ length: count }, (_, index) => ({ topic, envelope: envelope(n + index) }))
  return [records[0]!, ...records.slice(1)] as const
}

const counting = (count: number) => Array.from({ length: count }, (_, n) => n)
const perSecond = (events: number, ms: number) => Math.round((events * 1000) / ms)
const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return +(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN).toFixed(1)
}

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const started = performance.now()
    const result = yield* effect
    return { result, ms: performance.now() - started }
  })

const countsMigrations = migrationSet("bench", {
  "0001_counts": Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`CREATE TABLE bench_counts (aggregate_id text PRIMARY KEY, events integer NOT NULL)`
  )
})

// What a typical read model does per event: one upsert.
const counts = makeProjection({
  name: "bench_counts",
  topics: [topic],
  tables: ["bench_counts"],
  apply: (_event, meta) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql`INSERT INTO bench_counts (aggregate_id, events) VALUES (${meta.key}, 1)
        ON CONFLICT (aggregate_id) DO UPDATE SET events = bench_counts.events + 1`)
})


const prefix = () => `bench-${crypto.randomUUID().slice(0, 8)}.`

/** The adapter under a prefix of its own, so every measurement starts on empty topics. */
const openLog = (brokers: ReadonlyArray<string>, topicPrefix = prefix()) =>
  Effect.map(Layer.build(layerKafka({ brokers, topicPrefix, topics: [topic] })), (context) => Context.get(context, EventLog))

const measureAppends = (brokers: ReadonlyArray<string>) =>
  Effect.scoped(Effect.gen(function*() {
    const log = yield* openLog(brokers)
    const latencies: Array<number> = []
    const single = yield* timed(Effect.forEach(counting(singles), (n) =>
      Effect.map(timed(log.append(recordsOf(1, n))), ({ ms }) => void latencies.push(ms))))
    const batched = yield* timed(Effect.forEach(counting(batches), (n) => log.append(recordsOf(batchSize, n * batchSize))))
    const concurrent = yield* timed(
      Effect.forEach(counting(singles * 4), (n) => log.append(recordsOf(1, n)), { concurrency })
    )
    console.log(JSON.stringify({
      bench: "eventlog-kafka.append",
      singlePerSecond: perSecond(singles, single.ms),
      singleMsP50: percentile(latencies, 50),
      singleMsP99: percentile(latencies, 99),
      [`batch${batchSize}PerSecond`]: perSecond(batches * batchSize, batched.ms),
      [`concurrent${concurrency}SinglePerSecond`]: perSecond(singles * 4, concurrent.ms)
    }))
  }))

/** The projector over `counts` on a fresh read-model database, following the log in the background. */
const projectorOn = (database: Layer.Layer<SqlClient.SqlClient, unknown>, log: EventLog["Service"]) =>
  Effect.gen(function*() {
    const context = yield* Layer.build(
      ProjectorRuntime.layer([counts]).pipe(
        Layer.provideMerge(layerMigrations([countsMigrations])),
        Layer.provideMerge(Layer.merge(database, Layer.succeed(EventLog, log)))
      )
    )
    return Context.get(context, ProjectorRuntime)
  })

const lastPerPartition = (positions: ReadonlyArray<Position>) =>
  [...new Map(positions.map((position) => [position.partition, position])).values()]

const measureProjection = (brokers: ReadonlyArray<string>, readModels: string, database: Layer.Layer<SqlClient.SqlClient, unknown>) =>
  Effect.scoped(Effect.gen(function*() {
    const log = yield* openLog(brokers)
    // The backlog first: then the projector's throughput is measured alone, in its own batches.
    const positions: Array<Position> = []
    for (let n = 0; n < projected; n += 500) positions.push(...(yield* log.append(recordsOf(Math.min(500, projected - n), n))))
    const projector = yield* projectorOn(database, log)
    const caughtUp = yield* timed(Effect.andThen(projector.run, projector.waitFor(lastPerPartition(positions), "10 minutes")))

    // Latency: one event at a time, append to committed in the read model.
    const sample = (n: number) =>
      Effect.map(timed(Effect.flatMap(log.append(recordsOf(1, n)), (at) => projector.waitFor(at, "30 seconds"))), ({ ms }) => ms)
    const idle = yield* Effect.forEach(counting(latencySamples), (n) => Effect.tap(sample(n), Effect.sleep("5 millis")))
    // The same under a steady load of other appends (batches of 10 every 10 / loadPerSecond seconds).
    const load = yield* Effect.suspend(() => log.append(recordsOf(10, 0))).pipe(
      Effect.repeat(Schedule.spaced(`${Math.round(10_000 / loadPerSecond)} millis`)),
      Effect.forkChild
    )
    const loaded = yield* Effect.forEach(counting(latencySamples), (n) => Effect.tap(sample(n), Effect.sleep("5 millis")))
    yield* Fiber.interrupt(load)
    console.log(JSON.stringify({
      bench: "eventlog-kafka.project",
      readModels,
      events: projected,
      projectedPerSecond: perSecond(projected, caughtUp.ms),
      appendToReadModelMsP50: percentile(idle, 50),
      appendToReadModelMsP99: percentile(idle, 99),
      [`underLoad${loadPerSecond}PerSecondMsP50`]: percentile(loaded, 50),
      [`underLoad${loadPerSecond}PerSecondMsP99`]: percentile(loaded, 99)
    }))
  }))

const program = (brokers: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    yield* measureAppends(brokers)
    yield* measureProjection(brokers, "postgresql", Layer.unwrap(Effect.map(freshPostgresDatabase, layerPostgres)))
    yield* measureProjection(brokers, "pglite-memory", layerEmbedded())
  }).pipe(Effect.provideService(References.MinimumLogLevel, "Warn"))

/** Start-to-ready and stop times of a broker; `cacheDir` empty means a cold start (the jars are downloaded first). */
const timeKafkaStart = async (cacheDir: string, kind: "cold" | "warm") => {
  const started = performance.now()
  const kafka = await startKafka({ cacheDir, runDir: mkdtempSync(join(tmpdir(), "bench-kafka-")), log: () => undefined })
  const readyMs = performance.now() - started
  const stopping = performance.now()
  await kafka.stop()
  console.log(JSON.stringify({
    bench: "eventlog-kafka.provision-kafka",
    kind,
    readyMs: Math.round(readyMs),
    stopMs: Math.round(performance.now() - stopping)
  }))
}

const main = async () => {
  if (provision) {
    const emptyCache = mkdtempSync(join(tmpdir(), "bench-kafka-cache-"))
    await timeKafkaStart(emptyCache, "cold").finally(() => rmSync(emptyCache, { recursive: true, force: true }))
    const cache = infraCacheDir(process.env)
    for (let round = 0; round < 3; round++) await timeKafkaStart(cache, "warm")
  }
  const started = performance.now()
  const infra = await up({ servers: ["kafka", "postgres"] })
  for (const outcome of infra.outcomes) {
    if (outcome.status === "failed") throw new Error(`${outcome.name} did not start: ${outcome.message}`)
    if (outcome.status === "started") {
      console.log(JSON.stringify({ bench: "eventlog-kafka.provision", server: outcome.name, startMs: Math.round(outcome.millis) }))
    }
  }
  Object.assign(process.env, infra.env)
  console.error(`servers ready in ${Math.round(performance.now() - started)} ms`)
  try {
    await Effect.runPromise(program(process.env.KAFKA_BROKERS!.split(",")))
  } finally {
    await down(() => undefined)
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
