import { describe, expect, it } from "@effect/vitest"
import { Profile, Topics } from "@synth/contracts"
import { BlobKey, BlobStore, BlobStoreError, layerMemory as BlobStoreMemory } from "@synth/blobstore"
import { EventLog, EventWriter, layerMemory as EventLogMemory, type StoredEvent } from "@synth/eventlog"
import { ingestTable } from "@synth/tabular"
import { createHash } from "node:crypto"
import { Effect, Exit, Layer, Schema, Stream } from "effect"
import { denotesPersonalData, maskValue } from "./masking.ts"
import { Profiling } from "./Profiling.ts"

const TestLayer = Profiling.layer.pipe(
  Layer.provideMerge(EventWriter.layer),
  Layer.provideMerge(Layer.mergeAll(EventLogMemory(), BlobStoreMemory))
)

const datasetId = "01a20253-ea72-701b-80bc-457caed70551"
const ownerId = "01a20253-0000-7000-8000-000000000001"
const tableKey = BlobKey.make("datasets", datasetId, "table")
const profileKey = BlobKey.make("datasets", datasetId, "profile")

const bytes = (text: string) => Stream.make(new TextEncoder().encode(text))

const csv = [
  "code,email,species,mass,flag",
  "AX-1001,ada@example.com,Adelie,3750,yes",
  "AX-1002,grace@example.com,Adelie,3800,no",
  "AX-1003,alan@example.com,Gentoo,5000,yes",
  "AX-1004,ada@example.com,Gentoo,,no",
  "AX-1005,edsger@example.com,Chinstrap,3500,yes",
  "AX-1006,barbara@example.com,Adelie,3650,yes"
].join("\n")

/** Stores the normalised table of a CSV text where the ingest service would. */
const storeTable = (text: string) =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    const { table } = yield* ingestTable(() => bytes(text))
    yield* blobs.put(tableKey, table)
  })

const logged = Effect.flatMap(EventLog, (log) =>
  Stream.runCollect(log.read({ topic: Topics.dataset.name, partition: 0, fromOffset: 0, follow: false }))
).pipe(Effect.map((events) => events))

const outcomes = Effect.map(logged, (events) =>
  events.filter((event) => event.envelope.actor === "service:profiling").map((event) => event.envelope)
)

/** Appends a gateway event for the dataset and returns it as the consumer would see it. */
const append = (type: "dataset.profile-requested" | "dataset.deleted") =>
  Effect.gen(function* () {
    const writer = yield* EventWriter
    const [position] = yield* writer.append([{ type, version: 1, payload: { datasetId } } as never], {
      aggregateId: datasetId,
      actor: `user:${ownerId}`,
      correlationId: "request-1",
      causationId: null
    })
    return (yield* logged).find((event) => event.offset === position!.offset)!
  })

const handle = (event: StoredEvent) => Effect.flatMap(Profiling, (profiling) => profiling.handle(event))

const storedProfile = Effect.gen(function* () {
  const blobs = yield* BlobStore
  const chunks = yield* Stream.runCollect(blobs.get(profileKey))
  const content = Buffer.concat(chunks)
  return { content, profile: Schema.decodeUnknownSync(Profile)(JSON.parse(content.toString("utf8"))) }
})

describe("Profiling", () => {
  it.effect("stores the masked profile and appends dataset.profiled once, however often the request is delivered", () =>
    Effect.gen(function* () {
      yield* storeTable(csv)
      const requested = yield* append("dataset.profile-requested")
      yield* handle(requested)
      yield* handle(requested)
      const events = yield* outcomes
      expect(events.map((event) => event.type)).toEqual(["dataset.profiled"])
      const { content, profile } = yield* storedProfile
      expect(events[0]).toMatchObject({
        causationId: requested.envelope.eventId,
        correlationId: "request-1",
        aggregateId: datasetId,
        version: 2,
        payload: {
          datasetId,
          profile: {
            blobKey: `datasets/${datasetId}/profile`,
            sha256: createHash("sha256").update(content).digest("hex"),
            size: content.length
          },
          rowCount: 6,
          columnCount: 5,
          quality: {
            score: profile.data_quality_score,
            level: profile.data_quality.level,
            warningCount: profile.data_quality.warnings.length
          }
        }
      })
      expect(JSON.stringify(events[0]!.payload)).not.toMatch(/example\.com|AX-|Adelie/)

      expect(profile.dataset_id).toBe(datasetId)
      const byName = Object.fromEntries(profile.columns.map((column) => [column.name, column]))
      // An identifier-like column and a personal-data name are masked, their counts kept; others are not.
      expect(byName.code).toMatchObject({ type: "string", likely_identifier: true, most_frequent_masked: true })
      expect(byName.email).toMatchObject({ type: "string", most_frequent_masked: true, frequencies: [2, 1, 1, 1, 1] })
      expect(byName.species).toMatchObject({
        most_frequent: ["Adelie", "Gentoo", "Chinstrap"],
        frequencies: [3, 2, 1],
        most_frequent_masked: false
      })
      expect(byName.mass).toMatchObject({ type: "integer", min: 3500, max: 5000, missing_count: 1, nullable: true })
      expect(content.toString("utf8")).not.toMatch(/example\.com|AX-10/)
      if (byName.email?.type === "string") expect(byName.email.most_frequent[0]).toBe("a***m")
    }).pipe(Effect.provide(TestLayer)))

  it.effect("answers a table it cannot read with dataset.profile-failed, once, and stores no profile", () =>
    Effect.gen(function* () {
      const blobs = yield* BlobStore
      yield* blobs.put(tableKey, bytes("this is not an Arrow IPC stream"))
      const requested = yield* append("dataset.profile-requested")
      yield* handle(requested)
      yield* handle(requested)
      const events = yield* outcomes
      expect(events.map((event) => event.type)).toEqual(["dataset.profile-failed"])
      expect(events[0]!.payload).toMatchObject({ datasetId, reason: "unable_to_analyze" })
      expect(Exit.isFailure(yield* Effect.exit(blobs.stat(profileKey)))).toBe(true)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("answers a missing table with dataset.profile-failed and removes a deleted dataset's blobs", () =>
    Effect.gen(function* () {
      const blobs = yield* BlobStore
      yield* handle(yield* append("dataset.profile-requested"))
      expect((yield* outcomes).map((event) => event.type)).toEqual(["dataset.profile-failed"])

      yield* storeTable(csv)
      yield* blobs.put(profileKey, bytes("{}"))
      yield* handle(yield* append("dataset.deleted"))
      expect(Exit.isFailure(yield* Effect.exit(blobs.stat(profileKey)))).toBe(true)
      expect(Exit.isFailure(yield* Effect.exit(blobs.stat(tableKey)))).toBe(true)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("fails the handler (for redelivery) when the blob store fails", () => {
    const FailingBlobs = Layer.effect(
      BlobStore,
      Effect.map(BlobStore, (store) => ({
        ...store,
        get: (key: BlobKey) => (key === tableKey ? Stream.fail(new BlobStoreError({ reason: "unreachable" })) : store.get(key))
      }))
    ).pipe(Layer.provide(BlobStoreMemory))
    const layer = Profiling.layer.pipe(
      Layer.provideMerge(EventWriter.layer),
      Layer.provideMerge(Layer.mergeAll(EventLogMemory(), FailingBlobs))
    )
    return Effect.gen(function* () {
      const exit = yield* Effect.exit(handle(yield* append("dataset.profile-requested")))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(yield* outcomes).toEqual([])
    }).pipe(Effect.provide(layer))
  })
})

describe("masking", () => {
  it("keeps the first and last character of values of 5 or more characters", () => {
    expect(maskValue("ada@example.com")).toBe("a***m")
    expect(maskValue("Bob")).toBe("***")
    expect(maskValue("Zoë✓ok")).toBe("Z***k")
  })

  it("recognises personal-data column names, not columns that merely contain such a word", () => {
    for (const name of ["email", "E-Mail", "customer_email", "contactPhone", "First Name", "SSN", "date_of_birth", "zip"]) {
      expect(denotesPersonalData(name), name).toBe(true)
    }
    for (const name of ["phone_service", "PhoneService", "species", "island", "payment_method", "names_count"]) {
      expect(denotesPersonalData(name), name).toBe(false)
    }
  })
})
