// Schema evolution end to end on the read side: a log still holding `dataset.profiled` v1 events (appended as their
// producer wrote them before v2) replays into the same read models as a log holding the same facts as v2.
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { type EventEnvelope, Topics } from "@synth/contracts"
import { layerMemory as BlobStoreMemory } from "@synth/blobstore"
import { EventLog, layerMemory } from "@synth/eventlog"
import { layerMigrations, ProjectorRuntime } from "@synth/sql"
import { layerEmbeddedTest } from "@synth/sql/testing"
import { Effect, Layer } from "effect"
import { gatewayMigrations, gatewayProjections } from "../readModels.ts"
import { UserKeys } from "../users/UserKeys.ts"

const owner = "01900000-0000-7000-8000-000000000001"
const datasets = ["01900000-0000-7000-8000-0000000000d1", "01900000-0000-7000-8000-0000000000d2"] as const

let sequence = 0
const eventId = () => `01900000-0000-7000-8000-${(++sequence).toString(16).padStart(12, "0")}`

const envelope = (
  type: string,
  version: number,
  aggregateId: string,
  payload: unknown,
  causationId: string | null = null
): EventEnvelope => ({
  eventId: eventId() as EventEnvelope["eventId"],
  type,
  version,
  aggregateId,
  occurredAt: `2026-11-23T05:00:${String(sequence).padStart(2, "0")}.000Z` as EventEnvelope["occurredAt"],
  actor: causationId === null ? `user:${owner}` : "service:profiling",
  correlationId: `request-${aggregateId}`,
  causationId,
  payload
})

interface ProfiledFacts {
  readonly datasetId: string
  readonly requestId: string
  readonly score: number
  readonly level: "Excellent" | "Good" | "Fair" | "Poor"
}

const profiledV1 = (facts: ProfiledFacts) =>
  envelope("dataset.profiled", 1, facts.datasetId, {
    datasetId: facts.datasetId,
    profileBlobKey: `datasets/${facts.datasetId}/profile`,
    profileSha256: "cd".repeat(32),
    profileSize: 4096,
    rowCount: 3,
    columnCount: 2,
    dataQualityScore: facts.score,
    level: facts.level,
    warningCount: 1
  }, facts.requestId)

const profiledV2 = (facts: ProfiledFacts) =>
  envelope("dataset.profiled", 2, facts.datasetId, {
    datasetId: facts.datasetId,
    profile: { blobKey: `datasets/${facts.datasetId}/profile`, sha256: "cd".repeat(32), size: 4096 },
    rowCount: 3,
    columnCount: 2,
    quality: { score: facts.score, level: facts.level, warningCount: 1 }
  }, facts.requestId)

/**
 * One history, event ids and times included, with each `dataset.profiled` written by `profiled`: two datasets,
 * the first profiled twice (the second outcome replaces the first), the second once.
 */
const history = (profiled: (facts: ProfiledFacts) => EventEnvelope) => {
  sequence = 0
  const events: Array<EventEnvelope> = []
  const requests: Record<string, string> = {}
  for (const datasetId of datasets) {
    events.push(
      envelope("dataset.uploaded", 1, datasetId, {
        datasetId,
        ownerId: owner,
        filename: "people.csv",
        blobKey: `datasets/${datasetId}/original`,
        fileSize: 40,
        sha256: "ab".repeat(32),
        declaredContentType: "text/csv"
      }),
      envelope("dataset.ingested", 1, datasetId, {
        datasetId,
        format: "csv",
        encoding: "utf-8",
        delimiter: ",",
        rowCount: 3,
        columnCount: 2,
        columns: [
          { name: "age", type: "integer", missingCount: 0, sourceFormat: null },
          { name: "city", type: "string", missingCount: 1, sourceFormat: null }
        ],
        tableBlobKey: `datasets/${datasetId}/table`,
        tableSize: 512,
        cleaning: { trimmedCells: 0, missingTokens: 1, standardisedValues: 0 }
      })
    )
  }
  const request = (datasetId: string) => {
    const requested = envelope("dataset.profile-requested", 1, datasetId, { datasetId })
    requests[datasetId] = requested.eventId
    events.push(requested)
    return requested.eventId
  }
  events.push(profiled({ datasetId: datasets[0], requestId: request(datasets[0]), score: 0.61, level: "Fair" }))
  events.push(profiled({ datasetId: datasets[1], requestId: request(datasets[1]), score: 0.95, level: "Excellent" }))
  events.push(profiled({ datasetId: datasets[0], requestId: request(datasets[0]), score: 0.82, level: "Good" }))
  return events
}

/** Every row of every domain read model, in a stable order. */
const readModels = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return {
    users: yield* sql`SELECT * FROM users ORDER BY id`,
    datasets: yield* sql`SELECT * FROM datasets ORDER BY id`,
    piiScans: yield* sql`SELECT * FROM dataset_pii_scans ORDER BY dataset_id, scan`,
    generators: yield* sql`SELECT * FROM generators ORDER BY id`,
    evaluations: yield* sql`SELECT * FROM evaluations ORDER BY id`,
    audit: yield* sql`SELECT event_id, type, version, payload FROM audit_events ORDER BY event_id`
  }
})

/** Appends the history to a fresh log, replays it into a fresh database, returns what the read models hold. */
const replayed = (events: ReadonlyArray<EventEnvelope>) =>
  Effect.gen(function*() {
    const log = yield* EventLog
    const [first, ...rest] = events.map((event) => ({ topic: Topics.dataset.name, envelope: event }))
    yield* log.append([first!, ...rest])
    const summary = yield* Effect.flatMap(ProjectorRuntime, (projector) => projector.rebuild())
    expect(summary.applied["datasets"]).toBe(events.length)
    return yield* readModels
  }).pipe(
    Effect.provide(
      ProjectorRuntime.layer(gatewayProjections).pipe(
        Layer.provideMerge(layerMigrations([gatewayMigrations])),
        Layer.provide(UserKeys.layer.pipe(Layer.provide(BlobStoreMemory))),
        Layer.provideMerge(Layer.merge(layerEmbeddedTest, layerMemory()))
      )
    )
  )

describe("a log holding dataset.profiled v1 and v2", () => {
  it.effect("replays into the same read models as the same facts written as v2", () =>
    Effect.gen(function*() {
      const allV2 = yield* replayed(history(profiledV2))
      let written = 0
      const mixed = yield* replayed(history((facts) => (++written === 2 ? profiledV2(facts) : profiledV1(facts))))
      const allV1 = yield* replayed(history(profiledV1))

      expect(allV2.datasets).toHaveLength(2)
      expect(allV2.datasets.map((row) => row["profile_blob_key"])).toEqual(datasets.map((id) => `datasets/${id}/profile`))
      const { audit: auditV2, ...domainV2 } = allV2
      const { audit: auditMixed, ...domainMixed } = mixed
      const { audit: auditV1, ...domainV1 } = allV1
      expect(domainMixed).toStrictEqual(domainV2)
      expect(domainV1).toStrictEqual(domainV2)

      // The audit feed shows each event as the log stores it: the versions differ exactly where the log's do.
      const profiledVersions = (audit: typeof auditV2) =>
        audit.filter((row) => row["type"] === "dataset.profiled").map((row) => row["version"])
      expect(profiledVersions(auditV2)).toEqual([2, 2, 2])
      expect(profiledVersions(auditMixed)).toEqual([1, 2, 1])
      expect(profiledVersions(auditV1)).toEqual([1, 1, 1])
      const others = (audit: typeof auditV2) => audit.filter((row) => row["type"] !== "dataset.profiled")
      expect(others(auditMixed)).toStrictEqual(others(auditV2))
    }), 60_000)
})
