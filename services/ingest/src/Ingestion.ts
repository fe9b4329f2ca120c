import {
  consumedBy,
  type DatasetId,
  decodeDomainEvent,
  type DomainEventOf,
  type EventEnvelope,
  serviceActor
} from "@synth/contracts"
import { BlobKey, BlobStore } from "@synth/blobstore"
import { EventWriter, type StoredEvent } from "@synth/eventlog"
import { ingestTable, TabularError } from "@synth/tabular"
import { absurd, Context, Effect, Layer } from "effect"

export const ingestActor = serviceActor("ingest")

type Uploaded = DomainEventOf<"dataset.uploaded">

const handled = consumedBy("ingestion")

/** The dataset no longer has its original: deleted (or already refused) before this ingestion ran. Nothing to do. */
class OriginalGone {
  readonly _tag = "OriginalGone"
}

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

    const outcomeContext = (envelope: EventEnvelope) => ({
      aggregateId: envelope.aggregateId,
      actor: ingestActor,
      correlationId: envelope.correlationId,
      causationId: envelope.eventId,
      eventIds: "derived" as const
    })

    const refuse = Effect.fn("Ingestion.refuse")(function* (datasetId: DatasetId, error: TabularError, envelope: EventEnvelope) {
      yield* blobs.removePrefix(BlobKey.make("datasets", datasetId))
      yield* writer.append(
        [{ type: "dataset.ingest-failed", version: 1, payload: { datasetId, reason: error.reason, message: error.message } }],
        outcomeContext(envelope)
      )
      yield* Effect.logInfo("dataset refused", { datasetId, reason: error.reason })
    })

    const ingest = Effect.fn("Ingestion.ingest")(function* (event: Uploaded, envelope: EventEnvelope) {
      const { datasetId } = event.payload
      const originalKey = BlobKey.make("datasets", datasetId, "original")
      const tableKey = BlobKey.make("datasets", datasetId, "table")
      const read = () => blobs.get(originalKey)
      const outcome = yield* ingestTable(read).pipe(
        Effect.flatMap(({ summary, table }) => Effect.map(blobs.put(tableKey, table), (put) => ({ summary, put }))),
        Effect.map((ingested) => ({ _tag: "Ingested" as const, ...ingested })),
        Effect.catchTags({
          TabularError: (error) => Effect.succeed({ _tag: "Refused" as const, error }),
          BlobNotFound: () => Effect.succeed(new OriginalGone())
        }),
        // A defect here is a bug in the parser on this very file: redelivery would hit it again and hold up every
        // later upload on the partition. Refuse the file (the cause goes to the log, never to the client).
        Effect.catchDefect((defect) =>
          Effect.logError("ingestion failed on a bug; the upload is refused", defect).pipe(
            Effect.as({
              _tag: "Refused" as const,
              error: new TabularError({
                reason: "unparseable_file",
                message: `The file could not be processed because of an internal error (logged with event ${envelope.eventId}). Re-save it as UTF-8 CSV and upload it again.`
              })
            })
          )
        )
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
            outcomeContext(envelope)
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
    const handle = Effect.fn("Ingestion.handle")(function* (stored: StoredEvent) {
      const decoded = yield* decodeDomainEvent(stored.envelope).pipe(
        Effect.catch((error) =>
          Effect.as(
            Effect.logWarning("event not understood by this version of the ingest service; skipped", {
              type: stored.envelope.type,
              version: stored.envelope.version,
              error: error._tag
            }),
            undefined
          )
        )
      )
      if (decoded === undefined || !handled(decoded)) return
      switch (decoded.type) {
        case "dataset.uploaded":
          return yield* ingest(decoded, stored.envelope)
        case "dataset.deleted":
          return yield* blobs.removePrefix(BlobKey.make("datasets", decoded.payload.datasetId))
        default:
          return absurd<void>(decoded)
      }
    }, (effect, stored) => Effect.annotateLogs(effect, { eventId: stored.envelope.eventId, datasetId: stored.key }))

    return { handle } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([EventWriter.layer]))
}
