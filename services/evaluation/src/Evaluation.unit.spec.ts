import { describe, expect, it } from "@effect/vitest"
import { BlobKey, BlobStore, BlobStoreError, layerMemory as BlobStoreMemory } from "@synth/blobstore"
import { EvaluationRequested, Topics } from "@synth/contracts"
import { evaluationRun, quickEvaluation, sampleRows } from "@synth/evaluation"
import { EventLog, EventWriter, layerMemory as EventLogMemory, type StoredEvent } from "@synth/eventlog"
import { holdoutRows } from "@synth/protect"
import { makeRandom, type SynthTable, synthTableFromArrow } from "@synth/synth"
import { ingestTable, readTable } from "@synth/tabular"
import { createHash } from "node:crypto"
import { Effect, Exit, Layer, Result, Schema, Stream } from "effect"
import { Evaluation } from "./Evaluation.ts"

const TestLayer = Evaluation.layer.pipe(
  Layer.provideMerge(EventWriter.layer),
  Layer.provideMerge(Layer.mergeAll(EventLogMemory(), BlobStoreMemory))
)

const ownerId = "01a20253-0000-7000-8000-000000000001"
const evaluationId = "01a20253-ea72-701b-80bc-000000000e01"
const generatorId = "01a20253-ea72-701b-80bc-000000000a01"
const realId = "01a20253-ea72-701b-80bc-000000000d01"
const syntheticId = "01a20253-ea72-701b-80bc-000000000d02"
const holdoutId = "01a20253-ea72-701b-80bc-000000000d03"
const resultsKey = BlobKey.make("evaluations", evaluationId, "results")

const bytes = (text: string) => Stream.make(new TextEncoder().encode(text))

const species = ["Adelie", "Gentoo", "Chinstrap"]
/** Penguin-like rows; `shift` moves the synthetic ones a little away from the real ones. */
const csv = (rows: number, offset: number, shift = 0) =>
  [
    "species,mass,flipper,island",
    ...Array.from({ length: rows }, (_, index) => {
      const i = index + offset
      const kind = i % 3
      const mass = 3_500 + kind * 700 + ((i * 37) % 400) + shift
      const flipper = 180 + kind * 15 + ((i * 13) % 20)
      return [species[kind], mass, flipper, ["Biscoe", "Dream", "Torgersen"][(i * 7) % 3]].join(",")
    })
  ].join("\n")

const tableKey = (datasetId: string) => BlobKey.make("datasets", datasetId, "table")

/** Stores the normalised table of a CSV text where the ingest service would, and answers it decoded. */
const storeTable = (datasetId: string, text: string) =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    const { table } = yield* ingestTable(() => bytes(text))
    yield* blobs.put(tableKey(datasetId), table)
    const decoded = synthTableFromArrow(yield* readTable(blobs.get(tableKey(datasetId))))
    return Result.getOrThrow(decoded) as SynthTable
  })

const logged = Effect.flatMap(EventLog, (log) =>
  Stream.runCollect(log.read({ topic: Topics.evaluation.name, partition: 0, fromOffset: 0, follow: false }))
).pipe(Effect.map((events) => events))

const outcomes = Effect.map(logged, (events) =>
  events.filter((event) => event.envelope.actor === "service:evaluation").map((event) => event.envelope)
)

type Request = typeof EvaluationRequested.payload.Type
const requestOf = Schema.decodeSync(EvaluationRequested.payload)

const quickRequest = requestOf({
  evaluationId,
  ownerId,
  generatorId,
  kind: "quick",
  realDatasetId: realId,
  syntheticDatasetId: syntheticId,
  holdoutDatasetId: null,
  sampleSize: 10_000,
  mlUtility: null,
  seed: 7
})

/** Appends the gateway's request and returns it as the consumer would see it. */
const request = (payload: Request) =>
  Effect.gen(function* () {
    const writer = yield* EventWriter
    const [position] = yield* writer.append([{ type: "evaluation.requested", version: 1, payload }], {
      aggregateId: payload.evaluationId,
      actor: `user:${ownerId}`,
      correlationId: "request-1",
      causationId: null
    })
    return (yield* logged).find((event) => event.offset === position!.offset)!
  })

const handle = (event: StoredEvent) => Effect.flatMap(Evaluation, (evaluation) => evaluation.handle(event))

const storedResults = Effect.gen(function* () {
  const blobs = yield* BlobStore
  const chunks = yield* Stream.runCollect(blobs.get(resultsKey))
  const content = Buffer.concat(chunks)
  return { content, results: JSON.parse(content.toString("utf8")) as Record<string, unknown> }
})

describe("Evaluation", () => {
  it.effect("stores a quick evaluation's results and appends evaluation.completed once, however often it is delivered", () =>
    Effect.gen(function* () {
      const real = yield* storeTable(realId, csv(150, 0))
      const synthetic = yield* storeTable(syntheticId, csv(120, 1_000, 40))
      const requested = yield* request(quickRequest)
      yield* handle(requested)
      yield* handle(requested)
      const events = yield* outcomes
      expect(events.map((event) => event.type)).toEqual(["evaluation.completed"])
      const { content, results } = yield* storedResults
      const expected = quickEvaluation(real, synthetic, { seed: 7 })
      expect(expected.overallScore).not.toBeNull()
      expect(results.overallScore).toBe(expected.overallScore)
      expect(results.qualityLevel).toBe(expected.qualityLevel)
      expect(results.statisticalSimilarity).toEqual(JSON.parse(JSON.stringify(expected.statisticalSimilarity)))
      expect(events[0]).toMatchObject({
        causationId: requested.envelope.eventId,
        correlationId: "request-1",
        aggregateId: evaluationId,
        payload: {
          evaluationId,
          resultsBlobKey: `evaluations/${evaluationId}/results`,
          sha256: createHash("sha256").update(content).digest("hex"),
          size: content.length,
          overallScore: expected.overallScore,
          qualityLevel: expected.qualityLevel,
          privacyScore: null
        }
      })
      expect(JSON.stringify(events[0]!.payload)).not.toMatch(/Adelie|Biscoe/)
    }).pipe(Effect.provide(TestLayer)), 60_000)

  it.effect("samples both tables to the sample size of a quick evaluation, seeded", () =>
    Effect.gen(function* () {
      const real = yield* storeTable(realId, csv(150, 0))
      const synthetic = yield* storeTable(syntheticId, csv(120, 1_000, 40))
      yield* handle(yield* request(requestOf({ ...quickRequest, sampleSize: 50 })))
      expect((yield* outcomes).map((event) => event.type)).toEqual(["evaluation.completed"])
      const { results } = yield* storedResults
      const random = makeRandom(7)
      const expected = quickEvaluation(sampleRows(real, 50, random.fork()), sampleRows(synthetic, 50, random.fork()), { seed: 7 })
      expect(results.overallScore).toBe(expected.overallScore)
      expect(results.columns).toEqual(JSON.parse(JSON.stringify(expected.columns)))
    }).pipe(Effect.provide(TestLayer)), 60_000)

  it.effect("tailors the recommendations to the generator named in the request (dp-ctgan through CTGAN's settings)", () =>
    Effect.gen(function* () {
      const real = yield* storeTable(realId, csv(150, 0))
      // Masses shifted far enough that the column's recommendation fires, with the model's advice in it.
      const synthetic = yield* storeTable(syntheticId, csv(120, 1_000, 2_000))
      yield* handle(yield* request(requestOf({ ...quickRequest, generatorType: "dp-ctgan" })))
      const { results } = yield* storedResults
      const tailored = quickEvaluation(real, synthetic, { seed: 7, generator: "ctgan" })
      const generic = quickEvaluation(real, synthetic, { seed: 7 })
      expect(tailored.recommendations).not.toEqual(generic.recommendations)
      expect(results.recommendations).toEqual(tailored.recommendations)
    }).pipe(Effect.provide(TestLayer)), 60_000)

  it.effect("runs the full evaluation with a holdout and ML utility; the headline scores are the library's", () =>
    Effect.gen(function* () {
      const real = yield* storeTable(realId, csv(160, 0))
      const synthetic = yield* storeTable(syntheticId, csv(160, 1_000, 40))
      const holdout = yield* storeTable(holdoutId, csv(60, 5_000))
      const mlUtility = { algorithms: ["random_forest" as const], testSize: 0.25, crossValidationFolds: 2, randomState: 3, targetColumn: "species" }
      yield* handle(yield* request(requestOf({ ...quickRequest, kind: "run", holdoutDatasetId: holdoutId, sampleSize: 100, mlUtility })))
      const events = yield* outcomes
      expect(events.map((event) => event.type)).toEqual(["evaluation.completed"])
      const { results } = yield* storedResults
      const expected = evaluationRun(real, synthetic, holdout, {
        sampleSize: 100,
        seed: 7,
        mlUtility: { algorithms: ["random_forest"], test_size: 0.25, cross_validation_folds: 2, random_state: 3, target_column: "species" }
      })
      expect(results.rows).toEqual({ real: 100, synthetic: 100, holdout: 60 })
      expect(JSON.parse(JSON.stringify(results.summary))).toEqual(JSON.parse(JSON.stringify(expected.summary)))
      expect(results.mlUtility).toEqual(JSON.parse(JSON.stringify(expected.mlUtility)))
      expect(results.mlUtility).not.toHaveProperty("skipped")
      expect(events[0]!.payload).toMatchObject({
        overallScore: expected.summary.overallScore,
        qualityLevel: expected.summary.qualityLevel,
        privacyScore: expected.privacy.score
      })
      expect(expected.privacy.score).not.toBeNull()
    }).pipe(Effect.provide(TestLayer)), 120_000)

  const generatorPrivacy = {
    columns: [
      { name: "species", role: "data", handling: "keep", piiType: null },
      { name: "mass", role: "data", handling: "keep", piiType: null },
      { name: "flipper", role: "data", handling: "keep", piiType: null },
      { name: "island", role: "quasi_identifier", handling: "keep", piiType: null }
    ],
    holdout: { share: 0.1, maxRows: 10_000, seed: 42, rows: 16 },
    rareCategoryThreshold: 5
  } as const

  it.effect("splits off the rows the generator held out (drawn again from its seed) as the attacks' non-members", () =>
    Effect.gen(function* () {
      const real = yield* storeTable(realId, csv(160, 0))
      const synthetic = yield* storeTable(syntheticId, csv(160, 1_000, 40))
      yield* handle(yield* request(requestOf({ ...quickRequest, kind: "run", sampleSize: 1000, generatorPrivacy })))
      expect((yield* outcomes).map((event) => event.type)).toEqual(["evaluation.completed"])
      const { results } = yield* storedResults
      const heldOutRows = holdoutRows(160, { share: 0.1, maxRows: 10_000 }, 42)
      expect(heldOutRows).toHaveLength(16)
      const expected = evaluationRun(real, synthetic, null, {
        sampleSize: 1000,
        seed: 7,
        mlUtility: null,
        generatorPrivacy: { columns: generatorPrivacy.columns, rareThreshold: 5, heldOutRows }
      })
      expect(results.rows).toEqual({ real: 144, synthetic: 160, holdout: 16 })
      expect(results.privacy).toEqual(JSON.parse(JSON.stringify(expected.privacy)))
      expect(results.privacy).toMatchObject({ membershipInference: { members: 144, nonMembers: 16 } })
      expect((results.privacy as { verdict: { checks: ReadonlyArray<{ name: string; status: string }> } }).verdict.checks.map(({ name, status }) => [name, status]))
        .toContainEqual(["identifier_disclosure", "not_applicable"])
    }).pipe(Effect.provide(TestLayer)), 120_000)

  it.effect("refuses to attack the wrong rows: a held-out count the draw does not give again", () =>
    Effect.gen(function* () {
      yield* storeTable(realId, csv(160, 0))
      yield* storeTable(syntheticId, csv(160, 1_000, 40))
      const recorded = { ...generatorPrivacy, holdout: { ...generatorPrivacy.holdout, rows: 17 } }
      yield* handle(yield* request(requestOf({ ...quickRequest, kind: "run", sampleSize: 1000, generatorPrivacy: recorded })))
      const events = yield* outcomes
      expect(events.map((event) => event.type)).toEqual(["evaluation.failed"])
      expect((events[0]!.payload as { message: string }).message).toBe(
        "The generator held out 17 rows, but drawing them again from the real dataset's 160 rows gives 16: the training rows cannot be told from the held-out ones."
      )
    }).pipe(Effect.provide(TestLayer)), 60_000)

  it.effect("scores a quick evaluation on the columns the generator learned", () =>
    Effect.gen(function* () {
      const real = yield* storeTable(realId, csv(150, 0))
      const synthetic = yield* storeTable(syntheticId, csv(120, 1_000, 40))
      const faked = { ...generatorPrivacy, columns: generatorPrivacy.columns.map((column) => column.name === "island" ? { ...column, handling: "fake" as const } : column) }
      yield* handle(yield* request(requestOf({ ...quickRequest, generatorPrivacy: faked })))
      const { results } = yield* storedResults
      const expected = quickEvaluation(real, synthetic, { seed: 7, columns: faked.columns })
      expect((results.columns as ReadonlyArray<{ column: string }>).map(({ column }) => column)).toEqual(["species", "mass", "flipper"])
      expect(results.overallScore).toBe(expected.overallScore)
    }).pipe(Effect.provide(TestLayer)), 60_000)

  it.effect("answers a missing table with evaluation.failed dataset_unavailable, once, and stores no results", () =>
    Effect.gen(function* () {
      const blobs = yield* BlobStore
      yield* storeTable(realId, csv(50, 0))
      const requested = yield* request(quickRequest)
      yield* handle(requested)
      yield* handle(requested)
      const events = yield* outcomes
      expect(events.map((event) => event.type)).toEqual(["evaluation.failed"])
      expect(events[0]!.payload).toMatchObject({ evaluationId, reason: "dataset_unavailable" })
      expect((events[0]!.payload as { message: string }).message).toMatch(/synthetic dataset/)
      expect(Exit.isFailure(yield* Effect.exit(blobs.stat(resultsKey)))).toBe(true)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("answers data it cannot evaluate with evaluation_failed, naming the column, not its values", () =>
    Effect.gen(function* () {
      yield* storeTable(realId, csv(50, 0))
      yield* storeTable(syntheticId, csv(50, 100).split("\n").map((line) => line.split(",").slice(0, 3).join(",")).join("\n"))
      yield* handle(yield* request(quickRequest))
      const events = yield* outcomes
      expect(events.map((event) => event.type)).toEqual(["evaluation.failed"])
      expect(events[0]!.payload).toMatchObject({ reason: "evaluation_failed" })
      const message = (events[0]!.payload as { message: string }).message
      expect(message).toMatch(/"island"/)
      expect(message).not.toMatch(/Biscoe|Dream|Torgersen/)
    }).pipe(Effect.provide(TestLayer)), 60_000)

  it.effect("answers a table that is not Arrow with evaluation_failed", () =>
    Effect.gen(function* () {
      const blobs = yield* BlobStore
      yield* storeTable(realId, csv(50, 0))
      yield* blobs.put(tableKey(syntheticId), bytes("this is not an Arrow IPC stream"))
      yield* handle(yield* request(quickRequest))
      const events = yield* outcomes
      expect(events.map((event) => event.type)).toEqual(["evaluation.failed"])
      expect(events[0]!.payload).toMatchObject({ reason: "evaluation_failed" })
      expect((events[0]!.payload as { message: string }).message).toMatch(/synthetic dataset's table could not be read/)
    }).pipe(Effect.provide(TestLayer)), 60_000)

  it.effect("fails the handler (for redelivery) when the blob store fails", () => {
    const FailingBlobs = Layer.effect(
      BlobStore,
      Effect.map(BlobStore, (store) => ({
        ...store,
        get: (key: BlobKey) =>
          key === tableKey(syntheticId) ? Stream.fail(new BlobStoreError({ reason: "unreachable" })) : store.get(key),
        stat: (key: BlobKey) =>
          key === tableKey(syntheticId) ? Effect.fail(new BlobStoreError({ reason: "unreachable" })) : store.stat(key)
      }))
    ).pipe(Layer.provide(BlobStoreMemory))
    const layer = Evaluation.layer.pipe(
      Layer.provideMerge(EventWriter.layer),
      Layer.provideMerge(Layer.mergeAll(EventLogMemory(), FailingBlobs))
    )
    return Effect.gen(function* () {
      yield* storeTable(realId, csv(50, 0))
      const exit = yield* Effect.exit(handle(yield* request(quickRequest)))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(yield* outcomes).toEqual([])
    }).pipe(Effect.provide(layer))
  })
})
