import { describe, expect, it } from "@effect/vitest"
import { PiiDetectionResult, Topics } from "@synth/contracts"
import { BlobKey, BlobStore, layerMemory as BlobStoreMemory } from "@synth/blobstore"
import { EventLog, EventWriter, layerMemory as EventLogMemory, type StoredEvent } from "@synth/eventlog"
import { ingestTable } from "@synth/tabular"
import { createHash } from "node:crypto"
import { Effect, Exit, Layer, Schema, Stream } from "effect"
import { AiLayer, AiLayerFailure, type AiLayerShape } from "./ai/AiLayer.ts"
import { Privacy } from "./Privacy.ts"

const datasetId = "01a20253-ea72-701b-80bc-457caed70551"
const ownerId = "01a20253-0000-7000-8000-000000000001"
const tableKey = BlobKey.make("datasets", datasetId, "table")
const resultKey = (scan: "basic" | "enhanced") => BlobKey.make("datasets", datasetId, `pii-${scan}`)

const bytes = (text: string) => Stream.make(new TextEncoder().encode(text))

const rows = [
  ["Ada Lovelace", "ada.lovelace@example.com", "219-09-9999", "4111 1111 1111 1111", "basic"],
  ["Alan Turing", "alan.turing@example.org", "078-05-1121", "5555 5555 5555 4444", "plus"],
  ["Grace Hopper", "grace.hopper@navy.example", "123-45-6789", "3782 822463 10005", "basic"],
  ["Edsger Dijkstra", "edsger@example.nl", "234-56-7890", "6011 1111 1111 1117", "premium"],
  ["Barbara Liskov", "liskov@example.edu", "345-67-8901", "4012 8888 8888 1881", "basic"],
  ["Donald Knuth", "knuth@example.edu", "456-78-9012", "4222 2222 2222 2", "plus"]
]
const csv = ["customer,email,ssn,card,plan", ...rows.map((row) => row.join(","))].join("\n")
const rawValues = rows.flatMap((row) => row.slice(0, 4))

const scriptedAi = (classify: AiLayerShape["classify"]): AiLayerShape => ({ info: { kind: "openai", model: "scripted" }, classify })

const layerWith = (ai: AiLayerShape) =>
  Privacy.layer.pipe(
    Layer.provide(Layer.succeed(AiLayer, ai)),
    Layer.provideMerge(EventWriter.layer),
    Layer.provideMerge(Layer.mergeAll(EventLogMemory(), BlobStoreMemory))
  )

const namesAsPersons = scriptedAi(() =>
  Effect.succeed([
    { column: "customer", type: "person_name", confidence: 0.95 },
    { column: "card", type: null, confidence: 0.9 }
  ])
)

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
  events.filter((event) => event.envelope.actor === "service:privacy").map((event) => event.envelope)
)

const append = (type: "dataset.pii-scan-requested" | "dataset.deleted", scan: "basic" | "enhanced" = "basic") =>
  Effect.gen(function* () {
    const writer = yield* EventWriter
    const payload = type === "dataset.deleted" ? { datasetId } : { datasetId, scan }
    const [position] = yield* writer.append([{ type, version: 1, payload } as never], {
      aggregateId: datasetId,
      actor: `user:${ownerId}`,
      correlationId: "request-1",
      causationId: null
    })
    return (yield* logged).find((event) => event.offset === position!.offset)!
  })

const handle = (event: StoredEvent) => Effect.flatMap(Privacy, (privacy) => privacy.handle(event))

const storedResult = (scan: "basic" | "enhanced") =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    const content = Buffer.concat(yield* Stream.runCollect(blobs.get(resultKey(scan))))
    return { content, result: Schema.decodeUnknownSync(PiiDetectionResult)(JSON.parse(content.toString("utf8"))) }
  })

const typeOf = (result: typeof PiiDetectionResult.Type, column: string) =>
  result.findings.find((finding) => finding.column === column)?.type

describe("Privacy", () => {
  it.effect("stores the basic result and appends dataset.pii-scanned once, however often the request is delivered", () =>
    Effect.gen(function* () {
      yield* storeTable(csv)
      const requested = yield* append("dataset.pii-scan-requested")
      yield* handle(requested)
      yield* handle(requested)
      const events = yield* outcomes
      expect(events.map((event) => event.type)).toEqual(["dataset.pii-scanned"])
      const { content, result } = yield* storedResult("basic")
      expect(result).toMatchObject({ dataset_id: datasetId, scan: "basic", ai_layer: null, pii_detected: true })
      expect(result.requested_at).toBe(requested.envelope.occurredAt)
      expect(typeOf(result, "email")).toBe("email_address")
      expect(typeOf(result, "card")).toBe("credit_card_number")
      expect(typeOf(result, "plan")).toBeUndefined()
      expect(events[0]).toMatchObject({
        causationId: requested.envelope.eventId,
        payload: {
          datasetId,
          scan: "basic",
          resultBlobKey: `datasets/${datasetId}/pii-basic`,
          resultSha256: createHash("sha256").update(content).digest("hex"),
          resultSize: content.length,
          piiDetected: true,
          riskLevel: result.risk_level,
          scannedRows: 6,
          totalRows: 6,
          aiLayer: null,
          warningCount: 0
        }
      })
      // The log holds names, types and confidences; the blob masked samples; neither a raw value.
      for (const value of rawValues) {
        expect(JSON.stringify(events[0]!.payload)).not.toContain(value)
        expect(content.toString("utf8")).not.toContain(value)
      }
    }).pipe(Effect.provide(layerWith(namesAsPersons))))

  it.effect("adds the AI layer's verdicts to the enhanced scan and keeps checksum-validated findings", () =>
    Effect.gen(function* () {
      yield* storeTable(csv)
      yield* handle(yield* append("dataset.pii-scan-requested", "enhanced"))
      const { result } = yield* storedResult("enhanced")
      expect(result.ai_layer).toEqual({ kind: "openai", model: "scripted", applied: true })
      expect(typeOf(result, "customer")).toBe("person_name")
      expect(result.findings.find((finding) => finding.column === "customer")?.methods).toContain("ai")
      expect(typeOf(result, "card")).toBe("credit_card_number")
      const [event] = yield* outcomes
      expect(event!.payload).toMatchObject({ scan: "enhanced", aiLayer: { kind: "openai", model: "scripted", applied: true } })
    }).pipe(Effect.provide(layerWith(namesAsPersons))))

  it.effect("answers the basic result with a warning when the AI layer fails", () =>
    Effect.gen(function* () {
      yield* storeTable(csv)
      yield* handle(yield* append("dataset.pii-scan-requested", "basic"))
      yield* handle(yield* append("dataset.pii-scan-requested", "enhanced"))
      const basic = (yield* storedResult("basic")).result
      const { result } = yield* storedResult("enhanced")
      expect(result.ai_layer).toEqual({ kind: "openai", model: "scripted", applied: false })
      expect(result.warnings).toEqual(["AI layer not applied: the provider is down. This is the basic scan's result; retry later."])
      expect(result.findings).toEqual(basic.findings)
    }).pipe(
      Effect.provide(
        layerWith(scriptedAi(() => Effect.fail(new AiLayerFailure({ reason: "provider_error", message: "the provider is down" }))))
      )
    ))

  it.effect("answers an unreadable or missing table with dataset.pii-scan-failed and stores nothing", () =>
    Effect.gen(function* () {
      const blobs = yield* BlobStore
      yield* handle(yield* append("dataset.pii-scan-requested"))
      yield* blobs.put(tableKey, bytes("this is not an Arrow IPC stream"))
      yield* handle(yield* append("dataset.pii-scan-requested"))
      const events = yield* outcomes
      expect(events.map((event) => event.type)).toEqual(["dataset.pii-scan-failed", "dataset.pii-scan-failed"])
      expect(events[0]!.payload).toMatchObject({ datasetId, scan: "basic", reason: "unable_to_analyze" })
      expect(Exit.isFailure(yield* Effect.exit(blobs.stat(resultKey("basic"))))).toBe(true)
    }).pipe(Effect.provide(layerWith(namesAsPersons))))

  it.effect("removes a deleted dataset's results", () =>
    Effect.gen(function* () {
      const blobs = yield* BlobStore
      yield* storeTable(csv)
      yield* handle(yield* append("dataset.pii-scan-requested"))
      yield* handle(yield* append("dataset.deleted"))
      expect(Exit.isFailure(yield* Effect.exit(blobs.stat(resultKey("basic"))))).toBe(true)
      expect(Exit.isFailure(yield* Effect.exit(blobs.stat(tableKey)))).toBe(true)
    }).pipe(Effect.provide(layerWith(namesAsPersons))))
})
