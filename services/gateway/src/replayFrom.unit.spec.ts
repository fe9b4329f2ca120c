// `synth replay --from TIME` over the running read models: every projection re-applies the events from TIME on
// over the rows it has, and ends exactly where it was (the projections are idempotent to re-application). The
// history holds a generator still running when TIME falls among its progress events, the case that appended its
// losses twice before the projection skipped epochs it had recorded.
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type EventEnvelope, Topics } from "@synth/contracts"
import { layerMemory as BlobStoreMemory } from "@synth/blobstore"
import { type AppendRecord, EventLog, layerMemory } from "@synth/eventlog"
import { layerMigrations, ProjectorRuntime } from "@synth/sql"
import { layerEmbeddedTest } from "@synth/sql/testing"
import { DateTime, Effect, Layer, Schedule } from "effect"
import { gatewayMigrations, gatewayProjections } from "./readModels.ts"
import { UserKeys } from "./users/UserKeys.ts"

const epoch = Date.parse("2026-11-23T05:00:00.000Z")
let clock = 0
let ids = 0
const id = () => `01900000-0000-7000-8000-${(++ids).toString(16).padStart(12, "0")}`

const records: Array<AppendRecord> = []
const emit = (topic: string, type: string, aggregateId: string, payload: unknown, causationId: string | null = null) => {
  const envelope: EventEnvelope = {
    eventId: id() as EventEnvelope["eventId"],
    type,
    version: type === "dataset.profiled" ? 2 : 1,
    aggregateId,
    occurredAt: new Date(epoch + ++clock * 1000).toISOString() as EventEnvelope["occurredAt"],
    actor: "anonymous",
    correlationId: `request-${clock}`,
    causationId,
    payload
  }
  records.push({ topic, envelope })
  return envelope.eventId
}

const userId = id()
const family = "f".repeat(16)
emit(Topics.user.name, "user.registered", userId, { userId, email: "ada@example.com", passwordHash: "$argon2id$hash" })
emit(Topics.user.name, "user.logged-in", userId, { userId, refreshTokenId: "a".repeat(16), familyId: family })
emit(Topics.user.name, "user.token-refreshed", userId, { userId, previousRefreshTokenId: "a".repeat(16), refreshTokenId: "b".repeat(16), familyId: family })
emit(Topics.user.name, "user.refresh-token-reused", userId, { userId, refreshTokenId: "a".repeat(16), familyId: family })

const datasetId = id()
const columns = [{ name: "age", type: "integer", missingCount: 0, sourceFormat: null }]
emit(Topics.dataset.name, "dataset.uploaded", datasetId, { datasetId, ownerId: userId, filename: "a.csv", blobKey: "k", fileSize: 10, sha256: "s", declaredContentType: null })
emit(Topics.dataset.name, "dataset.ingested", datasetId, { datasetId, format: "csv", encoding: "utf-8", delimiter: ",", rowCount: 3, columnCount: 1, columns, tableBlobKey: "t", tableSize: 5, cleaning: { trimmedCells: 0, missingTokens: 0, standardisedValues: 0 } })
const profileRequest = emit(Topics.dataset.name, "dataset.profile-requested", datasetId, { datasetId })
emit(Topics.dataset.name, "dataset.profiled", datasetId, { datasetId, profile: { blobKey: "p", sha256: "h", size: 9 }, rowCount: 3, columnCount: 1, quality: { score: 0.9, level: "Excellent", warningCount: 0 } }, profileRequest)
const scanRequest = emit(Topics.dataset.name, "dataset.pii-scan-requested", datasetId, { datasetId, scan: "basic" })
emit(Topics.dataset.name, "dataset.pii-scanned", datasetId, { datasetId, scan: "basic", resultBlobKey: "r", resultSha256: "h", resultSize: 4, piiDetected: false, riskLevel: "low", findings: [], quasiIdentifierSets: 0, scannedRows: 3, totalRows: 3, aiLayer: null, warningCount: 0 }, scanRequest)

/** A ctgan job: requested, started, `epochs` progress events with one epoch's losses each, completed or not. */
const generation = (epochs: number, completes: boolean) => {
  const generatorId = id()
  const outputDatasetId = id()
  const request = emit(Topics.generator.name, "generator.requested", generatorId, { generatorId, ownerId: userId, datasetId, generatorType: "ctgan", parameters: { numRows: 10, epochs, batchSize: 10, targetEpsilon: null }, seed: 1, outputDatasetId, outputFilename: "o.csv", estimatedSeconds: 5 })
  emit(Topics.generator.name, "generator.started", generatorId, { generatorId, attempt: 1, worker: "w" }, request)
  for (let epoch = 1; epoch <= epochs; epoch++) {
    emit(Topics.generator.name, "generator.progressed", generatorId, { generatorId, attempt: 1, phase: "fitting", progress: epoch * 10, losses: [{ epoch, losses: { generator: 1 / epoch } }] }, request)
  }
  if (completes) {
    emit(Topics.generator.name, "generator.completed", generatorId, { generatorId, attempt: 1, outputDatasetId, rowCount: 10, model: { blobKey: "m", sha256: "h", size: 1, format: "ctgan", formatVersion: 1 }, timings: { fitMs: 1, sampleMs: 1, totalMs: 2 } }, request)
    emit(Topics.dataset.name, "dataset.synthesized", outputDatasetId, { datasetId: outputDatasetId, ownerId: userId, generatorId, filename: "o.csv", rowCount: 10, columnCount: 1, columns, tableBlobKey: "o", tableSize: 3, sha256: "h" }, request)
  }
  return generatorId
}
const completed = generation(3, true)
const running = generation(4, false)

const evaluationId = id()
const evaluationRequest = emit(Topics.evaluation.name, "evaluation.requested", evaluationId, { evaluationId, ownerId: userId, generatorId: completed, kind: "quick", realDatasetId: datasetId, syntheticDatasetId: datasetId, holdoutDatasetId: null, sampleSize: 3, mlUtility: null, seed: 0 })
emit(Topics.evaluation.name, "evaluation.completed", evaluationId, { evaluationId, resultsBlobKey: "e", sha256: "h", size: 1, overallScore: 0.8, qualityLevel: "Good", privacyScore: 0.9, durationMs: 3 }, evaluationRequest)

/** Every row of every read model the gateway projects, cursors aside. */
const readModels = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const tables = gatewayProjections.flatMap((projection) => projection.tables)
  return Object.fromEntries(yield* Effect.forEach(tables, (table) =>
    Effect.map(sql`SELECT * FROM ${sql(table)}`, (rows) => [table, rows.map((row) => JSON.stringify(row)).sort()] as const)))
})

const TestLayer = ProjectorRuntime.layer(gatewayProjections).pipe(
  Layer.provideMerge(layerMigrations([gatewayMigrations])),
  Layer.provide(UserKeys.layer.pipe(Layer.provide(BlobStoreMemory))),
  Layer.provideMerge(Layer.merge(layerEmbeddedTest, layerMemory()))
)

describe("ProjectorRuntime.replayFrom over the gateway's read models", () => {
  it.effect("re-applies the events from each point of the history on and leaves every read model as it was", () =>
    Effect.gen(function*() {
      const log = yield* EventLog
      const projector = yield* ProjectorRuntime
      yield* log.append([records[0]!, ...records.slice(1)])
      yield* projector.rebuild()
      const before = yield* readModels
      expect(before["generators"]).toHaveLength(2)

      for (const [index, record] of records.entries()) {
        const since = DateTime.makeUnsafe(record.envelope.occurredAt)
        const summary = yield* projector.replayFrom(since)
        const fromHere = records.slice(index)
        expect(summary.applied["audit"], record.envelope.type).toBe(fromHere.length)
        expect(summary.applied["datasets"]).toBe(fromHere.filter((later) => later.topic === Topics.dataset.name).length)
        expect(yield* readModels, `replayed from ${record.envelope.type} at ${record.envelope.occurredAt}`).toStrictEqual(before)
      }
    }).pipe(Effect.provide(TestLayer)), 120_000)

  it.effect("re-applies nothing from a time after the last event, and refuses an unknown projection", () =>
    Effect.gen(function*() {
      const log = yield* EventLog
      const projector = yield* ProjectorRuntime
      yield* log.append([records[0]!, ...records.slice(1)])
      yield* projector.rebuild()
      const summary = yield* projector.replayFrom(DateTime.makeUnsafe(epoch + 3_600_000), ["generators"])
      expect(summary.applied).toStrictEqual({ generators: 0 })
      const error = yield* Effect.flip(projector.replayFrom(DateTime.makeUnsafe(epoch), ["nope"]))
      expect(error._tag).toBe("UnknownProjection")
    }).pipe(Effect.provide(TestLayer)), 60_000)

  it.live("runs beside the running projector: its followers start over from the moved cursors and carry on", () =>
    Effect.gen(function*() {
      const log = yield* EventLog
      const projector = yield* ProjectorRuntime
      yield* projector.run
      const caughtUp = Effect.flatMap(projector.lag, (lag) =>
        lag.every((entry) => entry.events === 0) ? Effect.void : Effect.fail("behind" as const)
      ).pipe(Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo({ duration: "20 seconds" }))))
      yield* log.append([records[0]!, ...records.slice(1)])
      yield* caughtUp
      const before = yield* readModels

      const middle = records[Math.floor(records.length / 2)]!
      yield* projector.replayFrom(DateTime.makeUnsafe(middle.envelope.occurredAt))
      yield* caughtUp
      expect(yield* readModels).toStrictEqual(before)

      const generatorRequest = records.find((record) => record.envelope.aggregateId === running)!.envelope.eventId
      emit(Topics.generator.name, "generator.progressed", running, { generatorId: running, attempt: 1, phase: "fitting", progress: 50, losses: [{ epoch: 5, losses: { generator: 0.2 } }] }, generatorRequest)
      yield* log.append([records.pop()!])
      yield* caughtUp
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ readonly loss_history: ReadonlyArray<{ readonly epoch: number }> }>`SELECT loss_history FROM generators WHERE id = ${running}`
      expect(row!.loss_history.map((entry) => entry.epoch)).toEqual([1, 2, 3, 4, 5])
    }).pipe(Effect.provide(TestLayer)), 60_000)
})
