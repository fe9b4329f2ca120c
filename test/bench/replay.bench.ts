// `synth replay`'s speed: the gateway's projections (users, datasets, generators, evaluations, audit) rebuilt into
// a fresh read-model database from a log of BENCH_EVENTS (100,000) events, as ProjectorRuntime.rebuild does it.
// Embedded: the PGlite log on disk and on-disk PGlite read models (the standalone runtime's DATA_DIR). Kafka:
// topics of 3 partitions and PostgreSQL read models (the distributed runtime); KAFKA_BROKERS and DATABASE_URL when
// set, else a broker and a PostgreSQL started through deploy/local/infra.ts.
//
// The log is a realistic mix, written straight through the log port: per account a registration, a login and two
// token refreshes; an upload, its ingestion, a profile and an enhanced PII scan (request and outcome each); a
// generation job (request, start, ten progress events with losses, completion, the synthetic dataset); and an
// evaluation (request and completion). 26 events per account, 3,847 accounts for 100,000 events (the last cut short).
//
// Knobs: BENCH_EVENTS (100000), BENCH_RUNS (3), BENCH_TARGETS (embedded,kafka). Each run prints its events/s and
// the process's CPU time (cpuMs), the figure to compare on a loaded machine.
import { type SqlClient } from "effect/sql"
import { type EventEnvelope, Topics } from "@synth/contracts"
import { type AppendRecord, EventLog, layerEmbedded as layerEmbeddedLog, layerKafka } from "@synth/eventlog"
import { layerMemory as BlobStoreMemory } from "@synth/blobstore"
import { gatewayMigrations, gatewayProjections, UserKeys } from "@synth/gateway"
import { layerEmbedded, layerMigrations, layerPostgres, ProjectorRuntime } from "@synth/sql"
// The vitest-free part of @synth/sql/testing.
import { freshPostgresDatabase } from "@synth/sql/testing/postgres"
import { Effect, Layer, References } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
// eslint-disable-next-line @nx/enforce-module-boundaries -- deploy/local is test tooling, not a library
import { down, up } from "../../deploy/local/infra.ts"
import { median } from "./support/measure.ts"

const wanted = Number(process.env.BENCH_EVENTS ?? 100_000)
const runs = Number(process.env.BENCH_RUNS ?? 3)
const targets = (process.env.BENCH_TARGETS ?? "embedded,kafka").split(",")

const eventsPerAccount = 26
const accounts = Math.ceil(wanted / eventsPerAccount)
const epoch = Date.parse("2026-11-01T00:00:00.000Z")

let clock = 0
const uuid = () => crypto.randomUUID()
const hash = (seed: string) => seed.replaceAll("-", "").padEnd(64, "0").slice(0, 64)

const envelope = (
  type: string,
  aggregateId: string,
  actor: string,
  correlationId: string,
  causationId: string | null,
  payload: unknown,
  version = 1
): EventEnvelope => ({
  eventId: uuid() as EventEnvelope["eventId"],
  type,
  version,
  aggregateId,
  occurredAt: new Date(epoch + ++clock * 10).toISOString(),
  actor: actor as EventEnvelope["actor"],
  correlationId,
  causationId,
  payload
})

const columns = [
  { name: "age", type: "integer", missingCount: 0, sourceFormat: null },
  { name: "income", type: "float", missingCount: 12, sourceFormat: null },
  { name: "city", type: "string", missingCount: 3, sourceFormat: null },
  { name: "joined", type: "date", missingCount: 0, sourceFormat: "YYYY-MM-DD" },
  { name: "active", type: "boolean", missingCount: 0, sourceFormat: null }
]

/** One account's life in the service: 26 events on the four topics. */
const accountStory = (): ReadonlyArray<AppendRecord> => {
  const records: Array<AppendRecord> = []
  const on = (topic: string) => (event: EventEnvelope) => {
    records.push({ topic, envelope: event })
    return event
  }
  const user = on(Topics.user.name)
  const dataset = on(Topics.dataset.name)
  const generator = on(Topics.generator.name)
  const evaluation = on(Topics.evaluation.name)
  const userId = uuid()
  const actor = `user:${userId}`
  const request = () => uuid()
  const family = uuid() + uuid()

  user(envelope("user.registered", userId, actor, request(), null, { userId, email: `${userId}@example.com`, passwordHash: `$argon2id$v=19$m=19456,t=2,p=1$${hash(userId)}` }))
  let token = uuid() + uuid()
  user(envelope("user.logged-in", userId, actor, request(), null, { userId, refreshTokenId: token, familyId: family }))
  for (let refresh = 0; refresh < 2; refresh++) {
    const next = uuid() + uuid()
    user(envelope("user.token-refreshed", userId, actor, request(), null, { userId, previousRefreshTokenId: token, refreshTokenId: next, familyId: family }))
    token = next
  }

  const datasetId = uuid()
  const upload = request()
  dataset(envelope("dataset.uploaded", datasetId, actor, upload, null, { datasetId, ownerId: userId, filename: "customers.csv", blobKey: `datasets/${datasetId}/original`, fileSize: 184_320, sha256: hash(datasetId), declaredContentType: "text/csv" }))
  const uploadedId = records.at(-1)!.envelope.eventId
  dataset(envelope("dataset.ingested", datasetId, "service:ingest", upload, uploadedId, { datasetId, format: "csv", encoding: "utf-8", delimiter: ",", rowCount: 2_000, columnCount: columns.length, columns, tableBlobKey: `datasets/${datasetId}/table`, tableSize: 96_000, cleaning: { trimmedCells: 14, missingTokens: 15, standardisedValues: 3 } }))
  const profileRequest = dataset(envelope("dataset.profile-requested", datasetId, actor, request(), null, { datasetId }))
  dataset(envelope("dataset.profiled", datasetId, "service:profiling", profileRequest.correlationId, profileRequest.eventId, { datasetId, profile: { blobKey: `datasets/${datasetId}/profile`, sha256: hash(profileRequest.eventId), size: 42_000 }, rowCount: 2_000, columnCount: columns.length, quality: { score: 0.86, level: "Good", warningCount: 2 } }, 2))
  const scanRequest = dataset(envelope("dataset.pii-scan-requested", datasetId, actor, request(), null, { datasetId, scan: "enhanced" }))
  dataset(envelope("dataset.pii-scanned", datasetId, "service:privacy", scanRequest.correlationId, scanRequest.eventId, { datasetId, scan: "enhanced", resultBlobKey: `datasets/${datasetId}/pii-enhanced`, resultSha256: hash(scanRequest.eventId), resultSize: 8_200, piiDetected: true, riskLevel: "medium", findings: [{ column: "city", type: "location", category: "quasi_identifier", confidence: 0.71 }], quasiIdentifierSets: 1, scannedRows: 1_000, totalRows: 2_000, aiLayer: { kind: "local", model: "local-classifier-1", applied: true }, warningCount: 0 }))

  const generatorId = uuid()
  const outputDatasetId = uuid()
  const job = generator(envelope("generator.requested", generatorId, actor, request(), null, { generatorId, ownerId: userId, datasetId, generatorType: "ctgan", parameters: { numRows: 2_000, epochs: 10, batchSize: 500, targetEpsilon: null }, seed: 7, outputDatasetId, outputFilename: "customers-synthetic.csv", estimatedSeconds: 40 }))
  const outcome = (type: string, payload: unknown) => envelope(type, generatorId, "service:generation", job.correlationId, job.eventId, payload)
  generator(outcome("generator.started", { generatorId, attempt: 1, worker: "generation-0" }))
  for (let epoch = 1; epoch <= 10; epoch++) {
    generator(outcome("generator.progressed", { generatorId, attempt: 1, phase: "fitting", progress: epoch * 9, losses: [{ epoch, losses: { generator: 1.2 - epoch * 0.05, discriminator: -0.3 + epoch * 0.01 } }] }))
  }
  generator(outcome("generator.completed", { generatorId, attempt: 1, outputDatasetId, rowCount: 2_000, model: { blobKey: `generators/${generatorId}/model`, sha256: hash(generatorId), size: 1_200_000, format: "ctgan", formatVersion: 1 }, timings: { fitMs: 31_000, sampleMs: 400, totalMs: 31_500 } }))
  dataset(envelope("dataset.synthesized", outputDatasetId, "service:generation", job.correlationId, job.eventId, { datasetId: outputDatasetId, ownerId: userId, generatorId, filename: "customers-synthetic.csv", rowCount: 2_000, columnCount: columns.length, columns, tableBlobKey: `datasets/${outputDatasetId}/table`, tableSize: 95_000, sha256: hash(outputDatasetId) }))

  const evaluationId = uuid()
  const evaluationRequest = evaluation(envelope("evaluation.requested", evaluationId, actor, request(), null, { evaluationId, ownerId: userId, generatorId, kind: "run", realDatasetId: datasetId, syntheticDatasetId: outputDatasetId, holdoutDatasetId: null, sampleSize: 2_000, mlUtility: { algorithms: ["random_forest"], testSize: 0.25, crossValidationFolds: 3, randomState: 7, targetColumn: null }, seed: 7 }))
  evaluation(envelope("evaluation.completed", evaluationId, "service:evaluation", evaluationRequest.correlationId, evaluationRequest.eventId, { evaluationId, resultsBlobKey: `evaluations/${evaluationId}/results`, sha256: hash(evaluationId), size: 30_000, overallScore: 0.81, qualityLevel: "Good", privacyScore: 0.9, durationMs: 23_000 }))
  return records
}

/** Appends the mix in batches of 1,000 (the order a run produces: one account's events follow each other). */
const fill = Effect.gen(function*() {
  const log = yield* EventLog
  const records = Array.from({ length: accounts }, accountStory).flat().slice(0, wanted)
  const started = performance.now()
  for (let index = 0; index < records.length; index += 1_000) {
    const batch = records.slice(index, index + 1_000)
    yield* log.append([batch[0]!, ...batch.slice(1)])
  }
  const types = new Map<string, number>()
  for (const record of records) types.set(record.envelope.type, (types.get(record.envelope.type) ?? 0) + 1)
  console.error(`appended ${records.length} events in ${Math.round(performance.now() - started)} ms: ${JSON.stringify(Object.fromEntries(types))}`)
  return records.length
})

/**
 * One replay into a fresh read-model database: migrations, then every projection rebuilt from offset 0. With the
 * process's CPU time during the rebuild (every thread: the embedded databases' included), which load on the machine
 * moves far less than the duration; PostgreSQL's and Kafka's are not in it.
 */
const replayOnce = <E>(readModels: Layer.Layer<SqlClient.SqlClient, E>) =>
  Effect.gen(function*() {
    const projector = yield* ProjectorRuntime
    const cpuBefore = process.cpuUsage()
    const summary = yield* projector.rebuild()
    const cpu = process.cpuUsage(cpuBefore)
    return { summary, cpuMs: Math.round((cpu.user + cpu.system) / 1000) }
  }).pipe(
    Effect.provide(ProjectorRuntime.layer(gatewayProjections).pipe(
      Layer.provide(layerMigrations([gatewayMigrations])),
      Layer.provide(UserKeys.layer.pipe(Layer.provide(BlobStoreMemory))),
      Layer.provideMerge(readModels)
    ))
  )

const measure = <E>(target: string, events: number, freshReadModels: (run: number) => Layer.Layer<SqlClient.SqlClient, E>) =>
  Effect.gen(function*() {
    const rates: Array<number> = []
    for (let run = 0; run < runs; run++) {
      const { cpuMs, summary } = yield* replayOnce(freshReadModels(run))
      const applied = Object.values(summary.applied).reduce((sum, count) => sum + count, 0)
      const rate = Math.round((events * 1000) / summary.durationMillis)
      rates.push(rate)
      console.log(JSON.stringify({ bench: "replay", target, run, events, applied, durationMs: summary.durationMillis, eventsPerSecond: rate, cpuMs }))
    }
    console.log(JSON.stringify({ bench: "replay", target, events, runs, medianEventsPerSecond: median(rates) }))
  })

const quiet = Layer.succeed(References.MinimumLogLevel)("Warn")

const embedded = Effect.gen(function*() {
  const root = mkdtempSync(join(tmpdir(), "bench-replay-"))
  try {
    yield* Effect.gen(function*() {
      const events = yield* fill
      yield* measure("embedded", events, (run) => layerEmbedded({ dataDir: join(root, `readmodels-${run}`) }))
    }).pipe(Effect.provide(layerEmbeddedLog({ dataDir: join(root, "eventlog") })))
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})

const kafka = (brokers: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const events = yield* fill
    yield* measure("kafka", events, () => Layer.unwrap(Effect.map(freshPostgresDatabase, layerPostgres)))
  }).pipe(Effect.provide(layerKafka({ brokers, topicPrefix: `bench-replay-${Date.now()}.` })))

const main = async () => {
  console.error(`replay bench: ${wanted} events (${accounts} accounts), ${runs} runs, targets ${targets.join(", ")}`)
  if (targets.includes("embedded")) await Effect.runPromise(embedded.pipe(Effect.scoped, Effect.provide(quiet)))
  if (!targets.includes("kafka")) return
  const infra = process.env.KAFKA_BROKERS === undefined || process.env.DATABASE_URL === undefined
    ? await up({ servers: ["kafka", "postgres"] })
    : undefined
  if (infra !== undefined) {
    for (const outcome of infra.outcomes) {
      if (outcome.status === "failed") throw new Error(`${outcome.name} did not start: ${outcome.message}`)
    }
    Object.assign(process.env, infra.env)
  }
  try {
    await Effect.runPromise(kafka(process.env.KAFKA_BROKERS!.split(",")).pipe(Effect.scoped, Effect.provide(quiet)))
  } finally {
    if (infra !== undefined) await down(() => undefined)
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
