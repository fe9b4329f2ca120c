// A projection applies a batch as applying its events one by one would: the same history, projected event by event
// (a transaction each, as a live follower meeting one event at a time), as one batch per topic (a replay) and in
// uneven chunks, leaves every read-model table the same, byte for byte, the audit feed's positions included. The
// history interleaves several accounts (many rows per statement) and holds what the rules are about: redelivered
// events, late and second outcomes, requeues, samples, deletions, a forgotten user and two registrations of one email.
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { decodeDomainEvent, type EventEnvelope, Topics } from "@synth/contracts"
import { layerMemory as BlobStoreMemory } from "@synth/blobstore"
import type { StoredEvent } from "@synth/eventlog"
import { layerMigrations, type Projected } from "@synth/sql"
import { layerEmbeddedTest } from "@synth/sql/testing"
import { Effect, Layer } from "effect"
import { gatewayMigrations, gatewayProjections } from "./readModels.ts"
import { UserKeys } from "./users/UserKeys.ts"

let ids = 0
const id = () => `01900000-0000-7000-8000-${(++ids).toString(16).padStart(12, "0")}`
let seconds = 0

interface Logged {
  readonly topic: string
  readonly envelope: EventEnvelope
}

/** One account's events, in the order it made them. */
const accountHistory = (variant: number, sharedEmail: string): ReadonlyArray<Logged> => {
  const events: Array<Logged> = []
  const log = (topic: string, type: string, aggregateId: string, payload: unknown, causationId: string | null = null, version = 1) => {
    const envelope: EventEnvelope = {
      eventId: id() as EventEnvelope["eventId"],
      type,
      version,
      aggregateId,
      occurredAt: new Date(Date.UTC(2026, 10, 1) + ++seconds * 1000).toISOString() as EventEnvelope["occurredAt"],
      actor: "anonymous",
      correlationId: `request-${seconds}`,
      causationId,
      payload
    }
    events.push({ topic, envelope })
    return envelope.eventId
  }
  const user = (type: string, payload: unknown) => log(Topics.user.name, type, userId, payload)
  const dataset = (type: string, datasetId: string, payload: unknown, causationId: string | null = null, version = 1) =>
    log(Topics.dataset.name, type, datasetId, { datasetId, ...(payload as object) }, causationId, version)
  const generator = (type: string, generatorId: string, payload: unknown, causationId: string | null = null) =>
    log(Topics.generator.name, type, generatorId, { generatorId, ...(payload as object) }, causationId)
  const evaluation = (type: string, evaluationId: string, payload: unknown, causationId: string | null = null) =>
    log(Topics.evaluation.name, type, evaluationId, { evaluationId, ...(payload as object) }, causationId)

  const userId = id()
  const email = variant === 1 ? sharedEmail : `user-${variant}@example.com`
  user("user.registered", { userId, email, passwordHash: `$argon2id$${variant}` })
  user("user.logged-in", { userId, refreshTokenId: `a${variant}`.padEnd(16, "a"), familyId: `f${variant}`.padEnd(16, "f") })
  user("user.token-refreshed", { userId, previousRefreshTokenId: `a${variant}`.padEnd(16, "a"), refreshTokenId: `b${variant}`.padEnd(16, "b"), familyId: `f${variant}`.padEnd(16, "f") })
  if (variant % 2 === 0) user("user.refresh-token-reused", { userId, refreshTokenId: `a${variant}`.padEnd(16, "a"), familyId: `f${variant}`.padEnd(16, "f") })

  const columns = [{ name: "age", type: "integer", missingCount: 0, sourceFormat: null }]
  const datasetId = id()
  dataset("dataset.uploaded", datasetId, { ownerId: userId, filename: "a.csv", blobKey: "k", fileSize: 10 + variant, sha256: "s", declaredContentType: null })
  if (variant === 3) {
    dataset("dataset.ingest-failed", datasetId, { reason: "unparseable_file", message: "Not a table." })
  } else {
    dataset("dataset.ingested", datasetId, { format: "csv", encoding: "utf-8", delimiter: ",", rowCount: 3, columnCount: 1, columns, tableBlobKey: "t", tableSize: 5, cleaning: { trimmedCells: 0, missingTokens: 0, standardisedValues: 0 } })
  }
  const firstProfile = dataset("dataset.profile-requested", datasetId, {})
  const secondProfile = dataset("dataset.profile-requested", datasetId, {})
  dataset("dataset.profiled", datasetId, { profile: { blobKey: "p2", sha256: "h", size: 9 }, rowCount: 3, columnCount: 1, quality: { score: 0.9, level: "Excellent", warningCount: 0 } }, secondProfile, 2)
  // The first request's outcome comes late: it is older than the one recorded and changes nothing.
  dataset("dataset.profile-failed", datasetId, { reason: "unable_to_analyze", message: "Too late." }, firstProfile)
  const basic = dataset("dataset.pii-scan-requested", datasetId, { scan: "basic" })
  const enhanced = dataset("dataset.pii-scan-requested", datasetId, { scan: "enhanced" })
  dataset("dataset.pii-scanned", datasetId, { scan: "basic", resultBlobKey: "r", resultSha256: "h", resultSize: 4, piiDetected: false, riskLevel: "low", findings: [], quasiIdentifierSets: 0, scannedRows: 3, totalRows: 3, aiLayer: null, warningCount: 0 }, basic)
  dataset("dataset.pii-scan-failed", datasetId, { scan: "enhanced", reason: "unable_to_analyze", message: "No model." }, enhanced)

  const generation = id()
  const output = id()
  const request = generator("generator.requested", generation, { ownerId: userId, datasetId, generatorType: "ctgan", parameters: { numRows: 10, epochs: 3, batchSize: 10, targetEpsilon: null }, seed: variant, outputDatasetId: output, outputFilename: "o.csv", estimatedSeconds: 5 })
  generator("generator.started", generation, { attempt: 1, worker: "w" }, request)
  generator("generator.progressed", generation, { attempt: 1, phase: "fitting", progress: 30, losses: [{ epoch: 1, losses: { generator: 1 } }] }, request)
  if (variant === 2) {
    generator("generator.requeued", generation, { attempt: 2, message: "lost" }, request)
    generator("generator.progressed", generation, { attempt: 1, phase: "fitting", progress: 60, losses: [{ epoch: 2, losses: { generator: 0.5 } }] }, request)
    generator("generator.started", generation, { attempt: 2, worker: "w2" }, request)
    generator("generator.started", generation, { attempt: 1, worker: "w" }, request)
  }
  generator("generator.progressed", generation, { attempt: variant === 2 ? 2 : 1, phase: "fitting", progress: 70, losses: [{ epoch: 2, losses: { generator: 0.5 } }] }, request)
  if (variant === 4) {
    generator("generator.cancelled", generation, { attempt: 1 }, request)
    generator("generator.completed", generation, { attempt: 1, outputDatasetId: output, rowCount: 10, model: { blobKey: "m", sha256: "h", size: 1, format: "ctgan", formatVersion: 1 }, timings: { fitMs: 1, sampleMs: 1, totalMs: 2 } }, request)
  } else {
    generator("generator.completed", generation, { attempt: variant === 2 ? 2 : 1, outputDatasetId: output, rowCount: 10, model: { blobKey: "m", sha256: "h", size: 1, format: "ctgan", formatVersion: 1 }, timings: { fitMs: 1.5, sampleMs: 1, totalMs: 2.5 } }, request)
    generator("generator.failed", generation, { attempt: 1, reason: "worker_lost", message: "late" }, request)
    dataset("dataset.synthesized", output, { ownerId: userId, generatorId: generation, filename: "o.csv", rowCount: 10, columnCount: 1, columns, tableBlobKey: "o", tableSize: 3, sha256: "h" }, request)
    const sample = id()
    generator("generator.sample-requested", generation, { ownerId: userId, outputDatasetId: sample, outputFilename: "s.csv", numRows: 5, seed: 1 })
    generator("generator.sampled", generation, { outputDatasetId: sample, rowCount: 5, sampleMs: 2 })
    generator("generator.sample-failed", generation, { outputDatasetId: sample, message: "second outcome" })
  }

  const evaluationId = id()
  const evaluationRequest = evaluation("evaluation.requested", evaluationId, { ownerId: userId, generatorId: generation, kind: "quick", realDatasetId: datasetId, syntheticDatasetId: output, holdoutDatasetId: null, sampleSize: 3, mlUtility: null, seed: 0 })
  evaluation("evaluation.completed", evaluationId, { resultsBlobKey: "e", sha256: "h", size: 1, overallScore: 0.8 + variant / 100, qualityLevel: "Good", privacyScore: 0.9, durationMs: 3 }, evaluationRequest)
  evaluation("evaluation.failed", evaluationId, { reason: "evaluation_failed", message: "late" }, evaluationRequest)

  if (variant === 5) {
    // Forgotten: the account, its datasets, generators and evaluations go; late events of them change nothing.
    user("user.forgotten", { userId })
    dataset("dataset.deleted", datasetId, {})
    generator("generator.deleted", generation, {})
    evaluation("evaluation.deleted", evaluationId, {})
    generator("generator.progressed", generation, { attempt: 1, phase: "fitting", progress: 90, losses: [] }, request)
    dataset("dataset.ingested", datasetId, { format: "csv", encoding: "utf-8", delimiter: ",", rowCount: 3, columnCount: 1, columns, tableBlobKey: "t", tableSize: 5, cleaning: { trimmedCells: 0, missingTokens: 0, standardisedValues: 0 } })
  }
  return events
}

/** The accounts' histories interleaved, one event of each in turn, with some events delivered twice. */
const history = (() => {
  const accounts = Array.from({ length: 6 }, (_, variant) => accountHistory(variant, "shared@example.com"))
  const interleaved: Array<Logged> = []
  for (let index = 0; accounts.some((events) => index < events.length); index++) {
    for (const events of accounts) if (index < events.length) interleaved.push(events[index]!)
  }
  // Redelivered: the same events (same ids) later in the log, as a producer's retry could append them.
  return [...interleaved, ...interleaved.filter((_, index) => index % 9 === 4)]
})()

/** The history as each topic's partition holds it: offsets in log order. */
const stored: ReadonlyArray<StoredEvent> = (() => {
  const next = new Map<string, number>()
  return history.map(({ envelope, topic }) => {
    const offset = next.get(topic) ?? 0
    next.set(topic, offset + 1)
    return { topic, partition: 0, offset, key: envelope.aggregateId, envelope, appendedAt: envelope.occurredAt }
  })
})()

/** Splits a partition's events into the batches a reader would hand over. */
type Batching = (events: ReadonlyArray<Projected>) => ReadonlyArray<ReadonlyArray<Projected>>

const oneByOne: Batching = (events) => events.map((event) => [event])
const whole: Batching = (events) => [events]
const unevenChunks: Batching = (events) => {
  const sizes = [3, 1, 7, 2, 5]
  const chunks: Array<ReadonlyArray<Projected>> = []
  for (let start = 0, turn = 0; start < events.length; start += sizes[turn++ % sizes.length]!) {
    chunks.push(events.slice(start, start + sizes[turn % sizes.length]!))
  }
  return chunks
}

/**
 * Every row of every gateway read model after projecting the history with `batching`, each batch in a transaction
 * of its own, projections and topics in the order the runtime's catch-up takes them. The audit feed in position order.
 */
const projectedRows = (batching: Batching) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const projected = yield* Effect.forEach(stored, (meta) =>
      Effect.map(Effect.orDie(decodeDomainEvent(meta.envelope)), (event): Projected => ({ event, meta })))
    for (const projection of gatewayProjections) {
      for (const topic of projection.topics) {
        for (const batch of batching(projected.filter(({ meta }) => meta.topic === topic))) {
          yield* sql.withTransaction(projection.applyBatch(batch))
        }
      }
    }
    const tables = gatewayProjections.flatMap((projection) => projection.tables)
    return Object.fromEntries(yield* Effect.forEach(tables, (table) =>
      Effect.map(
        table === "audit_events" ? sql`SELECT * FROM audit_events ORDER BY position` : sql`SELECT * FROM ${sql(table)}`,
        (rows) => {
          const lines = rows.map((row) => JSON.stringify(row))
          return [table, table === "audit_events" ? lines : lines.sort()] as const
        }
      )))
  }).pipe(
    Effect.provide(layerMigrations([gatewayMigrations]).pipe(
      Layer.provideMerge(layerEmbeddedTest),
      Layer.provideMerge(UserKeys.layer.pipe(Layer.provide(BlobStoreMemory)))
    ))
  )

describe("the gateway's projections, batch by batch", () => {
  it.live("leave the same rows whether a history comes one event at a time, whole or in uneven batches", () =>
    Effect.gen(function*() {
      const eventByEvent = yield* projectedRows(oneByOne)
      expect(eventByEvent["audit_events"]).toHaveLength(new Set(history.map(({ envelope }) => envelope.eventId)).size)
      expect(eventByEvent["users"]).toHaveLength(5)
      expect(eventByEvent["generators"]).toHaveLength(5)
      expect(yield* projectedRows(whole)).toStrictEqual(eventByEvent)
      expect(yield* projectedRows(unevenChunks)).toStrictEqual(eventByEvent)
    }), 120_000)
})
