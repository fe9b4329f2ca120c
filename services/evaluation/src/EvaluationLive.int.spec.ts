// The evaluation service as the distributed runtime composes it (services/evaluation/src/main.ts): the adapters
// chosen by configuration, here Kafka and MinIO from the int setup. A request appended to the log is answered by the
// consumer-group member with results in MinIO and evaluation.completed, and a request for a deleted dataset with
// evaluation.failed.
import { describe, expect, layer } from "@effect/vitest"
import { BlobKey, BlobStore, layerFromConfig as BlobStoreFromConfig } from "@synth/blobstore"
import { type EventEnvelope, EvaluationRequested, Topics } from "@synth/contracts"
import { EventLog, EventWriter, layerFromConfig as EventLogFromConfig } from "@synth/eventlog"
import { kafkaTestSettings } from "@synth/eventlog/testing"
import { ingestTable } from "@synth/tabular"
import { createHash, randomUUID } from "node:crypto"
import { ConfigProvider, Effect, Layer, Schedule, Schema, Stream } from "effect"
import { EvaluationLive } from "./EvaluationLive.ts"

const settings = Layer.unwrap(
  Effect.map(kafkaTestSettings, (kafka) => {
    const env = Object.entries({ ...process.env, ...kafka }).filter((entry): entry is [string, string] => entry[1] !== undefined)
    return ConfigProvider.layer(ConfigProvider.fromEnv({ env: Object.fromEntries(env) }))
  })
)

const TestLive = EvaluationLive.pipe(
  Layer.provideMerge(EventWriter.layer),
  Layer.provideMerge(Layer.mergeAll(EventLogFromConfig, BlobStoreFromConfig)),
  Layer.provide(settings)
)

const csv = (rows: number, offset: number) =>
  [
    "species,mass,island",
    ...Array.from({ length: rows }, (_, index) => {
      const i = index + offset
      return [["Adelie", "Gentoo", "Chinstrap"][i % 3], 3_500 + (i % 3) * 700 + ((i * 37) % 400), ["Biscoe", "Dream"][i % 2]].join(",")
    })
  ].join("\n")

const storeTable = (datasetId: string, text: string) =>
  Effect.flatMap(BlobStore, (blobs) =>
    Effect.flatMap(ingestTable(() => Stream.make(new TextEncoder().encode(text))), ({ table }) =>
      blobs.put(BlobKey.make("datasets", datasetId, "table"), table)))

const request = (payload: typeof EvaluationRequested.payload.Encoded) =>
  Effect.gen(function* () {
    const writer = yield* EventWriter
    const requestId = randomUUID()
    const decoded = Schema.decodeSync(EvaluationRequested.payload)(payload)
    yield* writer.append([{ type: "evaluation.requested", version: 1, payload: decoded }], {
      aggregateId: payload.evaluationId,
      actor: `user:${payload.ownerId}`,
      correlationId: requestId,
      causationId: null
    })
    return requestId
  })

/** The evaluation service's answer to the request of this correlation id, once it is in the log. */
const answerTo = (correlationId: string) =>
  Effect.gen(function* () {
    const log = yield* EventLog
    const partitions = yield* log.partitions(Topics.evaluation.name)
    const events = yield* Effect.forEach(Array.from({ length: partitions }, (_, partition) => partition), (partition) =>
      Stream.runCollect(log.read({ topic: Topics.evaluation.name, partition, fromOffset: 0, follow: false })))
    const answer = events.flatMap((chunk) => chunk).map((event) => event.envelope)
      .find((envelope) => envelope.correlationId === correlationId && envelope.actor === "service:evaluation")
    return yield* answer === undefined ? Effect.fail("not yet" as const) : Effect.succeed<EventEnvelope>(answer)
  }).pipe(Effect.retry({ schedule: Schedule.spaced("200 millis"), times: 300 }))

const ownerId = "01a20253-0000-7000-8000-000000000001"
const generatorId = "01a20253-ea72-701b-80bc-000000000a01"

layer(TestLive, { timeout: 120_000, excludeTestServices: true })("the evaluation service on Kafka and MinIO", (it) => {
  describe("evaluation.requested", () => {
    it.effect("is answered with results in the blob store and evaluation.completed, or evaluation.failed", () =>
      Effect.gen(function* () {
        const real = randomUUID(), synthetic = randomUUID()
        yield* storeTable(real, csv(120, 0))
        yield* storeTable(synthetic, csv(100, 500))
        const base = {
          ownerId,
          generatorId,
          kind: "quick" as const,
          realDatasetId: real,
          syntheticDatasetId: synthetic,
          holdoutDatasetId: null,
          sampleSize: 1_000,
          mlUtility: null,
          seed: 1
        }
        const evaluationId = randomUUID()
        const completed = yield* answerTo(yield* request({ ...base, evaluationId }))
        expect(completed.type).toBe("evaluation.completed")
        const payload = completed.payload as { resultsBlobKey: string; sha256: string; overallScore: number }
        expect(payload.resultsBlobKey).toBe(`evaluations/${evaluationId}/results`)
        const blobs = yield* BlobStore
        const stored = yield* Stream.runCollect(blobs.get(BlobKey.make("evaluations", evaluationId, "results")))
        const content = Buffer.concat(stored)
        expect(createHash("sha256").update(content).digest("hex")).toBe(payload.sha256)
        expect((JSON.parse(content.toString("utf8")) as { overallScore: number }).overallScore).toBe(payload.overallScore)

        const failed = yield* answerTo(yield* request({ ...base, evaluationId: randomUUID(), syntheticDatasetId: randomUUID() }))
        expect(failed).toMatchObject({ type: "evaluation.failed", payload: { reason: "dataset_unavailable" } })
      }), 120_000)
  })
})
