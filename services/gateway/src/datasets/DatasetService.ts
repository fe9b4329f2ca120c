import { HttpServerResponse } from "effect/http"
import {
  DatasetId,
  type DownloadFormat,
  type DownloadValueForm,
  FileTooLarge,
  MissingFile,
  NotCompleted,
  NotFound,
  type UploadAccepted,
  type UploadResult,
  userActor,
  type UserId
} from "@synth/contracts"
import { BlobKey, BlobStore } from "@synth/blobstore"
import { Ids } from "@synth/eventlog"
import { Clock, Context, DateTime, Effect, Layer, Option, Schedule } from "effect"
import { GatewayConfig } from "../config.ts"
import { RequestEvents } from "../events/RequestEvents.ts"
import { finished, stillRunning } from "../waited.ts"
import { GeneratorRepository } from "../generators/GeneratorRepository.ts"
import { attachmentDisposition } from "./contentDisposition.ts"
import { DatasetRepository, type DatasetRow } from "./DatasetRepository.ts"
import { ingestFailureError } from "./ingestFailure.ts"
import { missingFileDetail, multipartOverheadBytes, notMultipartDetail, storeFilePart, type UploadRequest } from "./uploadParts.ts"
import { detailOf, listItemOf } from "./views.ts"

/** Polls of the read model while an upload waits for ingestion: 10 ms growing to 100 ms apart. */
const ingestionPoll = Schedule.min([Schedule.exponential("10 millis", 1.5), Schedule.spaced("100 millis")])

/** What a download writes: the file format and the form of the values (docs/datasets.md). */
export interface DownloadOptions {
  readonly format: DownloadFormat
  readonly values: DownloadValueForm
}

/**
 * The dataset commands and queries of the gateway. An upload streams the file into the blob store, appends
 * `dataset.uploaded` and waits until the ingest service's outcome shows in the read model; every query is scoped to
 * the caller, and another user's dataset is indistinguishable from a missing one (404).
 */
export class DatasetService extends Context.Service<DatasetService>()("@synth/gateway/DatasetService", {
  make: Effect.gen(function* () {
    const datasets = yield* DatasetRepository
    const generators = yield* GeneratorRepository
    const blobs = yield* BlobStore
    const requestEvents = yield* RequestEvents
    const ids = yield* Ids
    const config = yield* GatewayConfig

    const tooLarge = () =>
      new FileTooLarge({
        detail: `File size exceeds the maximum limit of ${config.maxFileSize} bytes. Upload a smaller file or split it.`,
        max_file_size: config.maxFileSize
      })
    const missingFile = (why: string) => new MissingFile({ detail: missingFileDetail(why) })
    const notFound = (id: string) =>
      new NotFound({ detail: `There is no dataset ${JSON.stringify(id.slice(0, 64))} among yours. List them with GET /datasets/.` })

    const datasetKey = (id: string) => BlobKey.make("datasets", id)

    const storeOriginal = (key: BlobKey, request: UploadRequest) =>
      storeFilePart(blobs, key, request.parts, {
        isBodyReceived: request.isBodyReceived,
        maxBytes: config.maxFileSize,
        tooLarge,
        unreadable: () => missingFile("The request body could not be read as multipart/form-data.")
      })

    const awaitIngestion = (id: string) =>
      datasets.findById(id).pipe(
        Effect.flatMap((row) =>
          Option.isSome(row) && row.value.status !== "processing" ? Effect.succeed(row) : Effect.fail("processing" as const)
        ),
        Effect.retry(ingestionPoll),
        Effect.timeoutOption(config.uploadIngestTimeout),
        Effect.map(Option.flatten),
        Effect.catch(() => Effect.succeed(Option.none<DatasetRow>()))
      )

    /** The table once it is ready (201), else the stored upload still being processed (202). */
    const upload = Effect.fn("DatasetService.upload")(function* (request: UploadRequest) {
      const contentType = request.headers["content-type"] ?? ""
      if (!/^multipart\/form-data\b/i.test(contentType)) {
        return yield* new MissingFile({ detail: notMultipartDetail(contentType) })
      }
      const declaredLength = Number(request.headers["content-length"] ?? Number.NaN)
      if (Number.isFinite(declaredLength) && declaredLength > config.maxFileSize + multipartOverheadBytes) {
        return yield* tooLarge()
      }
      const id = DatasetId.make(yield* ids.next)
      const originalKey = BlobKey.make("datasets", id, "original")
      const stored = yield* storeOriginal(originalKey, request).pipe(
        Effect.onError(() => blobs.removePrefix(datasetKey(id)).pipe(Effect.ignore))
      )
      if (Option.isNone(stored)) return yield* missingFile("The upload has no part named `file`.")
      const original = stored.value

      yield* requestEvents.commit(
        [
          {
            type: "dataset.uploaded",
            version: 1,
            payload: {
              datasetId: id,
              ownerId: request.owner,
              filename: original.filename,
              blobKey: originalKey,
              fileSize: original.size,
              sha256: original.sha256,
              declaredContentType: original.contentType
            }
          }
        ],
        {
          aggregateId: id,
          actor: userActor(request.owner),
          notVisibleDetail: "The upload was stored but is not visible yet. Retry GET /datasets/ in a moment."
        }
      )
      const outcome = yield* awaitIngestion(id)
      if (Option.isNone(outcome)) {
        const row = yield* datasets.findById(id)
        const now = DateTime.formatIso(DateTime.makeUnsafe(yield* Clock.currentTimeMillis))
        const accepted: UploadAccepted = {
          id,
          filename: original.filename,
          row_count: null,
          column_count: null,
          file_size: original.size,
          upload_timestamp: Option.match(row, { onNone: () => now, onSome: (stored) => stored.createdAt }),
          status: "processing"
        }
        return stillRunning(accepted)
      }
      const row = outcome.value
      if (row.status === "failed") {
        return yield* ingestFailureError(row.failureReason ?? "unparseable_file", row.failureMessage)
      }
      const result: UploadResult = {
        id,
        filename: row.filename,
        row_count: row.rowCount ?? 0,
        column_count: row.columnCount ?? 0,
        file_size: row.fileSize,
        upload_timestamp: row.createdAt,
        status: "uploaded"
      }
      return finished(result)
    })

    const list = Effect.fn("DatasetService.list")(function* (
      owner: UserId,
      page: { readonly limit: number; readonly before: Option.Option<string> }
    ) {
      const rows = yield* datasets.listVisible(owner, { limit: page.limit + 1, before: page.before })
      const items = rows.slice(0, page.limit).map(listItemOf)
      const next = rows.length > page.limit ? Option.some(items[items.length - 1]!.id) : Option.none<string>()
      return { items, next }
    })

    /** A synthetic dataset still being generated answers 409 (it will exist), anything else absent 404. */
    const absent = (id: string, owner: UserId): Effect.Effect<never, NotFound | NotCompleted> =>
      Effect.flatMap(generators.findOutput(id, owner), (output): Effect.Effect<never, NotFound | NotCompleted> => {
        if (Option.isNone(output) || output.value.status !== "running") return Effect.fail(notFound(id))
        return Effect.fail(
          new NotCompleted({
            detail: `Dataset ${id} is still being generated. Poll GET /generators/${output.value.generatorId} until ` +
              "it is completed (for a sample: until its entry in samples[] is completed)."
          })
        )
      })

    const visible = (id: string, owner: UserId) =>
      Effect.flatMap(datasets.findVisible(id, owner), Option.match({ onNone: () => absent(id, owner), onSome: Effect.succeed }))

    const get = Effect.fn("DatasetService.get")(function* (id: string, owner: UserId) {
      return detailOf(yield* visible(id, owner))
    })

    const download = Effect.fn("DatasetService.download")(function* (id: string, owner: UserId, as: DownloadOptions) {
      const row = yield* visible(id, owner)
      if (row.status !== "uploaded" || row.tableBlobKey === null) {
        return yield* new NotCompleted({
          detail: `Dataset ${id} is still being processed. Poll GET /datasets/${id} until its status is uploaded.`
        })
      }
      const tableKey = BlobKey.make("datasets", row.id, "table")
      // Checked before the response starts: a table deleted meanwhile is a 404, not a broken 200.
      yield* blobs.stat(tableKey).pipe(
        Effect.catchTags({ BlobNotFound: () => Effect.fail(notFound(id)), BlobStoreError: Effect.die })
      )
      // The table's writers (Arrow, Parquet) load with the first download, not with the gateway.
      const { outputFormats, renderTable } = yield* Effect.promise(() => import("@synth/tabular"))
      const { contentType, extension } = outputFormats[as.format]
      return HttpServerResponse.stream(renderTable(blobs.get(tableKey), as), {
        contentType,
        headers: { "content-disposition": attachmentDisposition(row.filename, extension) }
      })
    })

    const remove = Effect.fn("DatasetService.remove")(function* (id: string, owner: UserId) {
      const row = yield* visible(id, owner)
      yield* requestEvents.commit([{ type: "dataset.deleted", version: 1, payload: { datasetId: DatasetId.make(row.id) } }], {
        aggregateId: row.id,
        actor: userActor(owner),
        notVisibleDetail: "The deletion was recorded but is not visible yet. Retry in a moment."
      })
      // The ingest service removes the blobs too when it sees the deletion; this makes it immediate.
      yield* blobs.removePrefix(datasetKey(row.id)).pipe(
        Effect.catch((error) => Effect.logWarning("dataset blobs not removed yet; the ingest service retries", error))
      )
    })

    return { upload, list, get, download, remove } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([DatasetRepository.layer, GeneratorRepository.layer, RequestEvents.layer]))
}
