import { HttpServerResponse } from "effect/http"
import {
  DatasetId,
  NotCompleted,
  NotFound,
  type PiiDetectionResult,
  type PiiFlags,
  type PiiScanKind,
  type PiiScanPending,
  UnableToAnalyze,
  userActor,
  type UserId
} from "@synth/contracts"
import { BlobKey, BlobStore } from "@synth/blobstore"
import { Context, Effect, Layer, Option, Schedule, Stream } from "effect"
import { GatewayConfig } from "../config.ts"
import { RequestEvents } from "../events/RequestEvents.ts"
import { finished, stillRunning } from "../waited.ts"
import { DatasetRepository } from "./DatasetRepository.ts"
import { isRunning, PiiScanRepository, type PiiScanRow } from "./PiiScanRepository.ts"

/** Polls of the read model while a scan request waits for its outcome: 10 ms growing to 100 ms apart. */
const outcomePoll = Schedule.min([Schedule.exponential("10 millis", 1.5), Schedule.spaced("100 millis")])

/** uuid v7 ids in canonical lower-case form sort as text in the order they were minted. */
const answers = (row: PiiScanRow, requestId: string) => row.outcomeRequestId !== null && row.outcomeRequestId >= requestId

const riskOrder = ["low", "medium", "high"] as const

/**
 * POST /datasets/{id}/pii-detection, POST /datasets/{id}/pii-detection-enhanced and GET /datasets/{id}/pii-flags.
 * A request appends `dataset.pii-scan-requested` and waits (PII_SCAN_TIMEOUT) until the read model shows the privacy
 * service's outcome of it, or of a later request of the same scan; the result is JSON in the blob store (masked
 * sample values only), sent as stored. Scoped to the owner like every dataset query.
 */
export class PiiScanService extends Context.Service<PiiScanService>()("@synth/gateway/PiiScanService", {
  make: Effect.gen(function* () {
    const datasets = yield* DatasetRepository
    const scans = yield* PiiScanRepository
    const blobs = yield* BlobStore
    const requestEvents = yield* RequestEvents
    const config = yield* GatewayConfig

    const notFound = (id: string) =>
      new NotFound({ detail: `There is no dataset ${JSON.stringify(id.slice(0, 64))} among yours. List them with GET /datasets/.` })

    const visible = (id: string, owner: UserId) =>
      Effect.flatMap(datasets.findVisible(id, owner), Option.match({ onNone: () => Effect.fail(notFound(id)), onSome: Effect.succeed }))

    /** The stored result's bytes; a blob gone meanwhile means the dataset was deleted after the read model answered. */
    const resultText = (datasetId: string, scan: PiiScanKind) =>
      blobs.get(BlobKey.make("datasets", datasetId, `pii-${scan}`)).pipe(
        Stream.decodeText(),
        Stream.mkString,
        Effect.catchTags({ BlobNotFound: () => Effect.fail(notFound(datasetId)), BlobStoreError: Effect.die })
      )

    const storedResult = (datasetId: string, scan: PiiScanKind) =>
      Effect.gen(function* () {
        const key = BlobKey.make("datasets", datasetId, `pii-${scan}`)
        yield* blobs.stat(key).pipe(Effect.catchTags({ BlobNotFound: () => Effect.fail(notFound(datasetId)), BlobStoreError: Effect.die }))
        return HttpServerResponse.stream(blobs.get(key), { contentType: "application/json" })
      })

    const awaitOutcome = (id: string, scan: PiiScanKind, requestId: string) =>
      scans.find(id, scan).pipe(
        Effect.flatMap((row) =>
          Option.isNone(row) || answers(row.value, requestId) ? Effect.succeed(row) : Effect.fail("running" as const)
        ),
        Effect.retry(outcomePoll),
        Effect.timeoutOption(config.piiScanTimeout),
        Effect.map(Option.flatten),
        Effect.catch(() => Effect.succeed(Option.none<PiiScanRow>()))
      )

    const request = Effect.fn("PiiScanService.request")(function* (id: string, owner: UserId, scan: PiiScanKind) {
      const row = yield* visible(id, owner)
      if (row.status !== "uploaded") {
        return yield* new NotCompleted({
          detail: `Dataset ${id} is still being processed. Poll GET /datasets/${id} until its status is uploaded, then scan it.`
        })
      }
      yield* requestEvents.commit(
        [{ type: "dataset.pii-scan-requested", version: 1, payload: { datasetId: DatasetId.make(row.id), scan } }],
        {
          aggregateId: row.id,
          actor: userActor(owner),
          notVisibleDetail: "The scan request was recorded but is not visible yet. Retry in a moment."
        }
      )
      // The row now holds this request's id, or a later one's: either outcome answers this request.
      const requested = yield* scans.find(row.id, scan)
      if (Option.isNone(requested) || requested.value.requestId === null) return yield* notFound(id)
      const outcome = yield* awaitOutcome(row.id, scan, requested.value.requestId)
      if (Option.isNone(outcome)) {
        if (Option.isNone(yield* datasets.findById(row.id))) return yield* notFound(id)
        const pending: PiiScanPending = { dataset_id: DatasetId.make(row.id), scan, status: "running" }
        return stillRunning(pending)
      }
      const answered = outcome.value
      if (answered.status === "failed") {
        return yield* new UnableToAnalyze({
          detail: answered.failureMessage ?? "Unable to scan the dataset. Download it, check its values and upload it again."
        })
      }
      return finished(yield* storedResult(row.id, scan))
    })

    const flags = Effect.fn("PiiScanService.flags")(function* (id: string, owner: UserId) {
      const row = yield* visible(id, owner)
      const rows = yield* scans.findAll(row.id)
      const stored = rows.filter((scan) => scan.resultBlobKey !== null)
      if (stored.length === 0) {
        const running = rows.find(isRunning)
        if (running !== undefined) {
          return yield* new NotCompleted({
            detail: `Dataset ${id} is being scanned. Retry GET /datasets/${id}/pii-flags in a moment.`
          })
        }
        return yield* new NotFound({
          detail: `No sensitive-data scan of dataset ${id} yet: run POST /datasets/${id}/pii-detection (or ` +
            `POST /datasets/${id}/pii-detection-enhanced) first.`
        })
      }
      const results = yield* Effect.forEach(stored, (scan) =>
        Effect.map(
          // Written by the privacy service from the same contract; parsed, not decoded again.
          resultText(row.id, scan.scan),
          (text) => [scan.scan, JSON.parse(text) as PiiDetectionResult] as const
        )
      )
      const byScan = new Map(results)
      const basic = byScan.get("basic") ?? null
      const enhanced = byScan.get("enhanced") ?? null
      const levels = [basic, enhanced].flatMap((result) => (result === null ? [] : [result.risk_level]))
      const body: PiiFlags = {
        dataset_id: DatasetId.make(row.id),
        pii_detected: (basic?.pii_detected ?? false) || (enhanced?.pii_detected ?? false),
        risk_level: riskOrder[Math.max(...levels.map((level) => riskOrder.indexOf(level)))]!,
        basic,
        enhanced,
        running: rows.filter(isRunning).map((scan) => scan.scan)
      }
      return body
    })

    return { request, flags } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([DatasetRepository.layer, PiiScanRepository.layer, RequestEvents.layer]))
}
