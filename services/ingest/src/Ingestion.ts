import { type DatasetId, type DomainEventOf, type EventEnvelope, serviceActor } from "@synth/contracts"
import { BlobKey, BlobStore } from "@synth/blobstore"
import { eventHandler, EventWriter, outcomeContext, refuseOnDefect } from "@synth/eventlog"
import type { TabularError } from "@synth/tabular"
import { Context, Effect, Layer } from "effect"

export const ingestActor = serviceActor("ingest")

type Uploaded = DomainEventOf<"dataset.uploaded">

// The parsers (@synth/tabular with Arrow) load with the first upload, not at start.
const tabular = Effect.promise(() => import("@synth/tabular"))

/**
 * Turns uploaded originals into normalised typed tables. Handlers are idempotent under redelivery: outcome events
 * get ids derived from the upload event (the log ignores a second append of the same id), blobs are overwritten
 * whole, and a dataset whose original is gone (deleted meanwhile) is skipped. A TabularError is the file's fault
 * and becomes `dataset.ingest-failed`; anything else (the blob store or the log failing) fails the handler, so the
 * event is redelivered rather than skipped.
 */
export class Ingestion extends Context.Service<Ingestion>()("@synth/ingest/Ingestion", {
  make: Effect.gen(function* () {
    const blobs = yield* BlobStore
    const writer = yield* EventWriter

    const refuse = Effect.fn("Ingestion.refuse")(function* (datasetId: DatasetId, error: TabularError, envelope: EventEnvelope) {
      yield* blobs.removePrefix(BlobKey.make("datasets", datasetId))
      yield* writer.append(
        [{ type: "dataset.ingest-failed", version: 1, payload: { datasetId, reason: error.reason, message: error.message } }],
        outcomeContext(ingestActor, envelope)
      )
      yield* Effect.logInfo("dataset refused", { datasetId, reason: error.reason })
    })

    const ingest = Effect.fn("Ingestion.ingest")(function* (event: Uploaded, envelope: EventEnvelope) {
      const { datasetId } = event.payload
      const originalKey = BlobKey.make("datasets", datasetId, "original")
      const tableKey = BlobKey.make("datasets", datasetId, "table")
      const read = () => blobs.get(originalKey)
      const { ingestTable, TabularError } = yield* tabular
      const outcome = yield* ingestTable(read).pipe(
        Effect.flatMap(({ summary, table }) => Effect.map(blobs.put(tableKey, table), (put) => ({ summary, put }))),
        // A defect here is a bug in the parser on this very file: the file is refused.
        refuseOnDefect(envelope, "ingestion failed on a bug; the upload is refused", (loggedWith) =>
          new TabularError({
            reason: "unparseable_file",
            message: `The file could not be processed because of an internal error (${loggedWith}). Re-save it as UTF-8 CSV and upload it again.`
          })),
        Effect.map((ingested) => ({ _tag: "Ingested" as const, ...ingested })),
        Effect.catchTags({
          TabularError: (error) => Effect.succeed({ _tag: "Refused" as const, error }),
          // The dataset no longer has its original: deleted (or already refused) before this ingestion ran.
          BlobNotFound: () => Effect.succeed({ _tag: "OriginalGone" as const })
        })
      )
      switch (outcome._tag) {
        case "OriginalGone":
          yield* blobs.removePrefix(BlobKey.make("datasets", datasetId))
          return yield* Effect.logInfo("dataset skipped: its original is gone (deleted)", { datasetId })
        case "Refused":
          return yield* refuse(datasetId, outcome.error, envelope)
        case "Ingested": {
          const { put, summary } = outcome
          yield* writer.append(
            [
              {
                type: "dataset.ingested",
                version: 1,
                payload: {
                  datasetId,
                  format: summary.format,
                  encoding: summary.encoding,
                  delimiter: summary.delimiter,
                  rowCount: summary.rowCount,
                  columnCount: summary.columns.length,
                  columns: summary.columns.map((column) => ({
                    name: column.name,
                    type: column.type,
                    missingCount: column.missingCount,
                    sourceFormat: column.sourceFormat
                  })),
                  tableBlobKey: tableKey,
                  tableSize: put.size,
                  cleaning: summary.cleaning
                }
              }
            ],
            outcomeContext(ingestActor, envelope)
          )
          return yield* Effect.logInfo("dataset ingested", {
            datasetId,
            rows: summary.rowCount,
            columns: summary.columns.length,
            format: summary.format
          })
        }
      }
    })

    /** One event of the dataset topic; types this service does not react to are ignored. */
    const handle = eventHandler({ consumer: "ingestion", span: "Ingestion.handle", keyAnnotation: "datasetId" }, {
      "dataset.uploaded": (event, stored) => ingest(event, stored.envelope),
      "dataset.deleted": ({ payload }) => blobs.removePrefix(BlobKey.make("datasets", payload.datasetId))
    })

    return { handle } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([EventWriter.layer]))
}
