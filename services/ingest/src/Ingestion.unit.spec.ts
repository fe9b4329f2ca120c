import { describe, expect, it } from "@effect/vitest"
import { Topics, type EventEnvelope } from "@synth/contracts"
import { BlobKey, BlobStore, layerMemory as BlobStoreMemory } from "@synth/blobstore"
import { EventLog, EventWriter, layerMemory as EventLogMemory, type StoredEvent } from "@synth/eventlog"
import { Effect, Exit, Layer, Stream } from "effect"
import { Ingestion } from "./Ingestion.ts"

const TestLayer = Ingestion.layer.pipe(
  Layer.provideMerge(EventWriter.layer),
  Layer.provideMerge(Layer.mergeAll(EventLogMemory(), BlobStoreMemory))
)

const datasetId = "01a20253-ea72-701b-80bc-457caed70551"
const ownerId = "01a20253-0000-7000-8000-000000000001"
const original = BlobKey.make("datasets", datasetId, "original")

const bytes = (text: string) => Stream.make(new TextEncoder().encode(text))

/** Appends a gateway event for the dataset and returns it as the consumer would see it. */
const append = (type: "dataset.uploaded" | "dataset.deleted") =>
  Effect.gen(function* () {
    const writer = yield* EventWriter
    const payload = type === "dataset.uploaded"
      ? { datasetId, ownerId, filename: "people.csv", blobKey: original, fileSize: 10, sha256: "00", declaredContentType: null }
      : { datasetId }
    const [position] = yield* writer.append([{ type, version: 1, payload } as never], {
      aggregateId: datasetId,
      actor: `user:${ownerId}`,
      correlationId: "request-1",
      causationId: null
    })
    return (yield* logged).find((event) => event.offset === position!.offset)!
  })

const logged = Effect.flatMap(EventLog, (log) =>
  Stream.runCollect(log.read({ topic: Topics.dataset.name, partition: 0, fromOffset: 0, follow: false }))
).pipe(Effect.map((events) => events))

const outcomes = Effect.map(logged, (events) =>
  events.filter((event) => event.envelope.actor === "service:ingest").map((event) => event.envelope)
)

const handle = (event: StoredEvent) => Effect.flatMap(Ingestion, (ingestion) => ingestion.handle(event))

describe("Ingestion", () => {
  it.effect("stores the typed table and appends dataset.ingested once, however often the upload is delivered", () =>
    Effect.gen(function* () {
      const blobs = yield* BlobStore
      yield* blobs.put(original, bytes("name,age\nAda,36\nGrace,NA\n"))
      const uploaded = yield* append("dataset.uploaded")
      yield* handle(uploaded)
      yield* handle(uploaded)
      const events: ReadonlyArray<EventEnvelope> = yield* outcomes
      expect(events.map((event) => event.type)).toEqual(["dataset.ingested"])
      expect(events[0]).toMatchObject({
        causationId: uploaded.envelope.eventId,
        correlationId: "request-1",
        aggregateId: datasetId,
        payload: {
          datasetId,
          format: "csv",
          rowCount: 2,
          columnCount: 2,
          columns: [
            { name: "name", type: "string", missingCount: 0 },
            { name: "age", type: "integer", missingCount: 1 }
          ],
          tableBlobKey: `datasets/${datasetId}/table`
        }
      })
      expect(JSON.stringify(events[0]!.payload)).not.toMatch(/Ada|Grace/)
      const table = yield* blobs.stat(BlobKey.make("datasets", datasetId, "table"))
      expect(table.size).toBeGreaterThan(0)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("refuses a file that is not a table: removes its blobs and appends dataset.ingest-failed", () =>
    Effect.gen(function* () {
      const blobs = yield* BlobStore
      yield* blobs.put(original, bytes("a,b\n1,2\n3,4,5\n"))
      const uploaded = yield* append("dataset.uploaded")
      yield* handle(uploaded)
      yield* handle(uploaded)
      const events = yield* outcomes
      expect(events.map((event) => event.type)).toEqual(["dataset.ingest-failed"])
      expect(events[0]!.payload).toMatchObject({ datasetId, reason: "unparseable_file" })
      expect(Exit.isFailure(yield* Effect.exit(blobs.stat(original)))).toBe(true)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("skips an upload whose original is gone, and removes a deleted dataset's blobs", () =>
    Effect.gen(function* () {
      const blobs = yield* BlobStore
      const uploaded = yield* append("dataset.uploaded")
      yield* handle(uploaded)
      expect(yield* outcomes).toEqual([])

      yield* blobs.put(original, bytes("a\n1\n"))
      yield* handle(yield* append("dataset.deleted"))
      expect(Exit.isFailure(yield* Effect.exit(blobs.stat(original)))).toBe(true)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("refuses a file the parser trips over (a defect) instead of retrying it forever", () => {
    // The original's bytes end in a defect, as a bug in the parsing code would: redelivering would hit it again.
    const BuggyBlobs = Layer.effect(
      BlobStore,
      Effect.map(BlobStore, (store) => ({
        ...store,
        get: (key: BlobKey) =>
          key === original ? Stream.concat(bytes("a,b\n1,2\n"), Stream.die(new Error("parser bug"))) : store.get(key)
      }))
    ).pipe(Layer.provide(BlobStoreMemory))
    const layer = Ingestion.layer.pipe(
      Layer.provideMerge(EventWriter.layer),
      Layer.provideMerge(Layer.mergeAll(EventLogMemory(), BuggyBlobs))
    )
    return Effect.gen(function* () {
      const uploaded = yield* append("dataset.uploaded")
      yield* handle(uploaded)
      const events = yield* outcomes
      expect(events.map((event) => event.type)).toEqual(["dataset.ingest-failed"])
      expect(events[0]!.payload).toMatchObject({ datasetId, reason: "unparseable_file" })
      expect(JSON.stringify(events[0]!.payload)).not.toMatch(/parser bug/)
    }).pipe(Effect.provide(layer))
  })
})
