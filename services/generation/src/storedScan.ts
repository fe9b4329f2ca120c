import { BlobKey, BlobStore } from "@synth/blobstore"
import type { DatasetId } from "@synth/contracts"
import { piiTypes } from "@synth/pii/types"
import { Effect, Option, Schema, Stream } from "effect"
import type { StoredScan } from "./worker/protocol.ts"

/** What a job reads of a stored scan result (services/privacy writes it; docs/pii.md): enough to resolve column roles. */
const StoredScanResult = Schema.Struct({
  requested_at: Schema.String,
  findings: Schema.Array(Schema.Struct({ column: Schema.String, type: Schema.Literals(piiTypes) })),
  identifiers: Schema.Array(Schema.String),
  quasi_identifiers: Schema.Array(Schema.Struct({ columns: Schema.Array(Schema.String) }))
})

const decodeResult = Schema.decodeUnknownEffect(Schema.fromJsonString(StoredScanResult))

const readScan = (blobs: BlobStore["Service"], datasetId: DatasetId, kind: StoredScan["kind"]) =>
  Stream.runCollect(blobs.get(BlobKey.make("datasets", datasetId, `pii-${kind}`))).pipe(
    Effect.map((chunks) => Buffer.concat(chunks).toString("utf8")),
    Effect.flatMap(decodeResult),
    Effect.map((result) => Option.some({ kind, result })),
    Effect.catchTag("BlobNotFound", () => Effect.succeed(Option.none())),
    // A result this version cannot read (written by another version) is as good as none: the job scans again.
    Effect.catchTag("SchemaError", (error) =>
      Effect.as(Effect.logWarning("a stored scan result could not be read; the job runs the basic scan", error.message), Option.none()))
  )

/**
 * The dataset's latest stored scan (basic or enhanced, whichever was requested last), which the job's column roles
 * come from; none when the dataset was never scanned (the worker then runs the basic scan).
 */
export const latestStoredScan = (blobs: BlobStore["Service"], datasetId: DatasetId) =>
  Effect.map(
    Effect.all([readScan(blobs, datasetId, "basic"), readScan(blobs, datasetId, "enhanced")]),
    (scans): StoredScan | null => {
      const stored = scans.flatMap((scan) => (Option.isSome(scan) ? [scan.value] : []))
      stored.sort((a, b) => Date.parse(b.result.requested_at) - Date.parse(a.result.requested_at))
      return stored[0] ?? null
    }
  )
