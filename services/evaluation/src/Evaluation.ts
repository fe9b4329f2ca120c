import { BlobKey, BlobStore, readShared } from "@synth/blobstore"
import {
  type DatasetId,
  type EvaluationFailureReason,
  type EvaluationId,
  type EvaluationRequested,
  type EventEnvelope,
  type GeneratorType,
  type MlUtilityConfig,
  serviceActor
} from "@synth/contracts"
import type { GeneratorKind, MlUtilityConfig as LibraryMlUtilityConfig } from "@synth/evaluation"
import { eventHandler, EventWriter, outcomeContext } from "@synth/eventlog"
import { Clock, Context, Data, Effect, Layer, Semaphore, Stream } from "effect"
import { EvaluationConfig } from "./EvaluationConfig.ts"
import type { EvaluationRequest } from "./worker/protocol.ts"
import { runInWorker } from "./worker/runInWorker.ts"

export const evaluationActor = serviceActor("evaluation")


/** The event's ML utility settings in the library's (the spec's) terms. */
const libraryMlUtility = (config: MlUtilityConfig): LibraryMlUtilityConfig => ({
  algorithms: config.algorithms,
  test_size: config.testSize,
  cross_validation_folds: config.crossValidationFolds,
  random_state: config.randomState,
  target_column: config.targetColumn
})

/** The model whose settings the recommendations name: DP-CTGAN is tuned through CTGAN's (epochs, batch size). */
const recommendationModel = (type: GeneratorType): GeneratorKind => (type === "dp-ctgan" ? "ctgan" : type)

/** A table the evaluation needs is gone: `role` says which (real, synthetic or holdout). */
class DatasetUnavailable extends Data.TaggedError("DatasetUnavailable")<{ readonly role: string }> {}

/**
 * Evaluates generators' synthetic rows against real ones on request: reads the normalised tables, computes the
 * quick evaluation or the full run in a worker thread (at most EVALUATION_CONCURRENCY at once in this process),
 * stores the results as JSON at `evaluations/<id>/results` and appends `evaluation.completed`, or
 * `evaluation.failed` when a table is gone or the data cannot be evaluated.
 *
 * Idempotent under redelivery: the outcome event's id is derived from the request event (the log ignores a second
 * append of the same id), and the results are a function of the tables and the seed, so a repeated run overwrites
 * the blob with the same bytes. The blob store or the log failing fails the handler, so the request is redelivered.
 */
export class Evaluation extends Context.Service<Evaluation>()("@synth/evaluation-service/Evaluation", {
  make: Effect.gen(function* () {
    const blobs = yield* BlobStore
    const writer = yield* EventWriter
    const config = yield* EvaluationConfig
    const permits = yield* Semaphore.make(config.concurrency)

    // Shared with the worker thread, not copied into it: each table is held once while the evaluation runs.
    const readTable = (datasetId: DatasetId, role: string) =>
      readShared(blobs, BlobKey.make("datasets", datasetId, "table")).pipe(
        Effect.catchTag("BlobNotFound", () => Effect.fail(new DatasetUnavailable({ role })))
      )

    const fail = (
      evaluationId: EvaluationId,
      envelope: EventEnvelope,
      reason: EvaluationFailureReason,
      message: string
    ) =>
      Effect.andThen(
        writer.append(
          [{ type: "evaluation.failed", version: 1, payload: { evaluationId, reason, message } }],
          outcomeContext(evaluationActor, envelope)
        ),
        Effect.logInfo("evaluation failed", { evaluationId, reason })
      )

    const evaluate = Effect.fn("Evaluation.evaluate")(function* (
      request: typeof EvaluationRequested.payload.Type,
      envelope: EventEnvelope
    ) {
      const { evaluationId } = request
      const startedAt = yield* Clock.currentTimeMillis
      const tables = yield* Effect.all({
        real: readTable(request.realDatasetId, "real"),
        synthetic: readTable(request.syntheticDatasetId, "synthetic"),
        holdout: request.kind === "run" && request.holdoutDatasetId !== null
          ? readTable(request.holdoutDatasetId, "holdout")
          : Effect.succeed(null)
      }).pipe(Effect.result)
      if (tables._tag === "Failure") {
        if (tables.failure instanceof DatasetUnavailable) {
          return yield* fail(
            evaluationId,
            envelope,
            "dataset_unavailable",
            `The ${tables.failure.role} dataset's table is gone (was the dataset deleted?).`
          )
        }
        return yield* Effect.fail(tables.failure)
      }
      const workerRequest: EvaluationRequest = {
        kind: request.kind,
        ...tables.success,
        sampleSize: request.sampleSize,
        seed: request.seed,
        mlUtility: request.kind === "run" && request.mlUtility !== null ? libraryMlUtility(request.mlUtility) : null,
        ...(request.generatorType === undefined ? {} : { generator: recommendationModel(request.generatorType) }),
        ...(request.generatorPrivacy === undefined ? {} : { generatorPrivacy: request.generatorPrivacy })
      }
      const outcome = yield* permits.withPermits(1)(runInWorker(workerRequest)).pipe(
        // A crash is a bug of the evaluation code on this very data: redelivery would hit it again. Refuse it (the
        // cause goes to the log, never to the client).
        Effect.catchTag("WorkerCrashed", (crash) =>
          Effect.as(
            Effect.logError("evaluation failed on a bug; the request is refused", crash.message),
            {
              kind: "refused" as const,
              message: `The evaluation could not be computed because of an internal error (logged with event ${envelope.eventId}).`
            }
          ))
      )
      if (outcome.kind === "refused") return yield* fail(evaluationId, envelope, "evaluation_failed", outcome.message)
      const key = BlobKey.make("evaluations", evaluationId, "results")
      const stored = yield* blobs.put(key, Stream.make(outcome.results))
      const finishedAt = yield* Clock.currentTimeMillis
      yield* writer.append(
        [
          {
            type: "evaluation.completed",
            version: 1,
            payload: {
              evaluationId,
              resultsBlobKey: key,
              sha256: stored.sha256,
              size: stored.size,
              overallScore: outcome.overallScore,
              qualityLevel: outcome.qualityLevel,
              privacyScore: outcome.privacyScore,
              durationMs: Math.max(0, finishedAt - startedAt)
            }
          }
        ],
        outcomeContext(evaluationActor, envelope)
      )
      return yield* Effect.logInfo("evaluation completed", {
        evaluationId,
        kind: request.kind,
        overallScore: outcome.overallScore,
        durationMs: finishedAt - startedAt
      })
    })

    /** One event of the evaluation topic; types this service does not react to are ignored. */
    const handle = eventHandler({ consumer: "evaluator", span: "Evaluation.handle", keyAnnotation: "evaluationId" }, {
      "evaluation.requested": ({ payload }, stored) => evaluate(payload, stored.envelope)
    })

    return { handle } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([EventWriter.layer]))
}
