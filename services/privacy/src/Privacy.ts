import { type DatasetId, type EventEnvelope, type PiiScanKind, serviceActor } from "@synth/contracts"
import { BlobKey, BlobStore } from "@synth/blobstore"
import { eventHandler, EventWriter, outcomeContext, refuseOnDefect } from "@synth/eventlog"
import type { ScanInput } from "@synth/pii"
import { Context, Data, Effect, Layer, Stream } from "effect"
import { AiLayer } from "./ai/AiLayer.ts"
import { PrivacyConfig } from "./PrivacyConfig.ts"
import { type AiLayerOutcome, piiResource } from "./resource.ts"

export const privacyActor = serviceActor("privacy")

/** Why a table gave no scan: the client's message (names columns, never values). */
class Unscannable extends Data.TaggedError("Unscannable")<{ readonly message: string }> {}

const retryAdvice = "Download the dataset, check it and upload it again."

// The scanner (@synth/pii with its dictionaries, @synth/tabular with Arrow) loads on the first scan, not at start.
const scanner = Effect.promise(() => Promise.all([import("@synth/pii"), import("@synth/tabular")]))

/** Where a scan's result is kept: one blob per scan kind, the latest result of each. */
export const piiResultKey = (datasetId: string, scan: PiiScanKind) => BlobKey.make("datasets", datasetId, `pii-${scan}`)

/**
 * Scans datasets' normalised tables for personal data on request: a bounded, evenly spaced sample of rows
 * (PII_SAMPLE_ROWS) goes through @synth/pii's pattern, column-name and statistical analysis; the enhanced scan adds
 * the AI layer (an OpenAI-compatible model when configured, else the bundled classifier). The result, with masked
 * sample values only, is stored as JSON; the event names columns, types and confidences, never a value.
 *
 * Idempotent under redelivery like the profiling service: derived outcome ids, the result blob overwritten whole. An
 * AI provider failing or timing out is not a failure of the scan: the basic result is stored with a warning.
 */
export class Privacy extends Context.Service<Privacy>()("@synth/privacy/Privacy", {
  make: Effect.gen(function* () {
    const blobs = yield* BlobStore
    const writer = yield* EventWriter
    const ai = yield* AiLayer
    const config = yield* PrivacyConfig

    // A defect is a bug of the scanner on this very table: the request is refused.
    const refuseOnBug = (envelope: EventEnvelope) =>
      refuseOnDefect(envelope, "the scan failed on a bug; the request is refused", (loggedWith) =>
        new Unscannable({
          message: `The dataset could not be scanned because of an internal error (${loggedWith}). ${retryAdvice}`
        }))

    const sample = (datasetId: DatasetId, envelope: EventEnvelope) =>
      Effect.flatMap(scanner, ([pii, tabular]) =>
        tabular.readTable(blobs.get(BlobKey.make("datasets", datasetId, "table"))).pipe(
          Effect.map((table) => pii.sampleScanInput(table, config.sampleRows))
        )).pipe(
        Effect.catchTags({
          TabularError: (error) =>
            Effect.fail(new Unscannable({ message: `The dataset's table could not be read (${error.message}). ${retryAdvice}` })),
          BlobNotFound: () =>
            Effect.fail(new Unscannable({ message: `The dataset's table is missing (deleted meanwhile?). ${retryAdvice}` }))
        }),
        refuseOnBug(envelope)
      )

    /** The basic scan, plus the AI layer's verdicts for the enhanced one (or a warning when it gave none). */
    const scan = (input: ScanInput, kind: PiiScanKind, envelope: EventEnvelope) =>
      Effect.gen(function* () {
        // Let other fibers (the gateway's requests in the embedded runtime) run before the synchronous work.
        yield* Effect.yieldNow
        const [pii] = yield* scanner
        const basic = pii.scanColumns(input)
        if (kind === "basic") return { result: basic, aiLayer: null, warnings: [] as Array<string> }
        return yield* ai.classify(input).pipe(
          Effect.map((verdicts) => ({
            result: pii.mergeAiVerdicts(basic, verdicts, input),
            aiLayer: { ...ai.info, applied: true } as AiLayerOutcome,
            warnings: [] as Array<string>
          })),
          Effect.catchTag("AiLayerFailure", (failure) =>
            Effect.as(
              Effect.logWarning("the AI layer gave no answer; the basic result stands", {
                reason: failure.reason,
                message: failure.message
              }),
              {
                result: basic,
                aiLayer: { ...ai.info, applied: false } as AiLayerOutcome,
                warnings: [`AI layer not applied: ${failure.message}. This is the basic scan's result; retry later.`]
              }
            )
          )
        )
      }).pipe(refuseOnBug(envelope))

    const refuse = (datasetId: DatasetId, kind: PiiScanKind, refused: Unscannable, envelope: EventEnvelope) =>
      Effect.andThen(
        writer.append(
          [
            {
              type: "dataset.pii-scan-failed",
              version: 1,
              payload: { datasetId, scan: kind, reason: "unable_to_analyze", message: refused.message }
            }
          ],
          outcomeContext(privacyActor, envelope)
        ),
        Effect.logInfo("dataset not scanned", { datasetId, scan: kind })
      )

    const scanDataset = Effect.fn("Privacy.scanDataset")(function* (
      datasetId: DatasetId,
      kind: PiiScanKind,
      envelope: EventEnvelope
    ) {
      // A refusal is an outcome; the blob store failing is not (the handler fails and the request is redelivered).
      const outcome = yield* sample(datasetId, envelope).pipe(
        Effect.flatMap((input) => scan(input, kind, envelope)),
        Effect.map((scanned) => ({ _tag: "Scanned" as const, ...scanned })),
        Effect.catchTag("Unscannable", (refused) => Effect.succeed(refused))
      )
      if (outcome._tag === "Unscannable") return yield* refuse(datasetId, kind, outcome, envelope)
      const { aiLayer, result, warnings } = outcome
      const resource = piiResource({ datasetId, scan: kind, result, aiLayer, warnings, requestedAt: envelope.occurredAt })
      const key = piiResultKey(datasetId, kind)
      const stored = yield* blobs.put(key, Stream.make(new TextEncoder().encode(JSON.stringify(resource))))
      yield* writer.append(
        [
          {
            type: "dataset.pii-scanned",
            version: 1,
            payload: {
              datasetId,
              scan: kind,
              resultBlobKey: key,
              resultSha256: stored.sha256,
              resultSize: stored.size,
              piiDetected: result.pii_detected,
              riskLevel: result.risk_level,
              findings: result.findings.map(({ category, column, confidence, type }) => ({ column, type, category, confidence })),
              quasiIdentifierSets: result.quasi_identifiers.length,
              scannedRows: result.scanned_rows,
              totalRows: result.total_rows,
              aiLayer,
              warningCount: warnings.length
            }
          }
        ],
        outcomeContext(privacyActor, envelope)
      )
      return yield* Effect.logInfo("dataset scanned", {
        datasetId,
        scan: kind,
        findings: result.findings.length,
        risk: result.risk_level
      })
    })

    /** One event of the dataset topic; types this service does not react to are ignored. */
    const handle = eventHandler({ consumer: "piiScanning", span: "Privacy.handle", keyAnnotation: "datasetId" }, {
      "dataset.pii-scan-requested": ({ payload }, stored) => scanDataset(payload.datasetId, payload.scan, stored.envelope),
      // A result written while the deletion was on its way would outlive the dataset: the deletion comes after
      // the request on the dataset's partition, so removing the blobs here leaves nothing behind.
      "dataset.deleted": ({ payload }) => blobs.removePrefix(BlobKey.make("datasets", payload.datasetId))
    })

    return { handle } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([EventWriter.layer]))
}
