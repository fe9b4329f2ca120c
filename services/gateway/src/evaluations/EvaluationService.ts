import { BlobKey, BlobStore } from "@synth/blobstore"
import {
  DatasetId,
  type Evaluation,
  type EvaluationAccepted,
  EvaluationId,
  type EvaluationRunAccepted,
  type EvaluationRunRequest,
  evaluationBounds,
  GeneratorId,
  type GeneratorType,
  type MlUtilityConfig,
  NotCompleted,
  NotFound,
  UnableToAnalyze,
  userActor,
  type UserId,
  ValidationFailed
} from "@synth/contracts"
import type { EvaluationResults } from "@synth/evaluation"
import { Ids } from "@synth/eventlog"
import { Context, Effect, Layer, Option, Result, Schedule, Stream } from "effect"
import { GatewayConfig } from "../config.ts"
import { DatasetRepository } from "../datasets/DatasetRepository.ts"
import { GeneratorRepository, type GeneratorRow } from "../generators/GeneratorRepository.ts"
import { RequestEvents } from "../events/RequestEvents.ts"
import { finished, stillRunning } from "../waited.ts"
import { EvaluationRepository, type EvaluationRow } from "./EvaluationRepository.ts"
import { generatorPrivacyOf } from "./generatorPrivacy.ts"
import { quickResult, safeToShareOf, shownResults } from "./results.ts"
import { validateRun } from "./validateRequest.ts"

/** Polls of the read model while a quick evaluation waits for its outcome: 10 ms growing to 100 ms apart. */
const outcomePoll = Schedule.min([Schedule.exponential("10 millis", 1.5), Schedule.spaced("100 millis")])

const quoted = (id: string) => JSON.stringify(id.slice(0, 64))

/** Runs stored before the report existed lack its charts' data; the renderer needs every part of the results. */
const reportParts = ["rows", "statistical", "diagnostic", "privacy", "summary", "distributions", "correlations"] as const
const hasReportParts = (stored: unknown): stored is EvaluationResults => {
  if (typeof stored !== "object" || stored === null) return false
  const parts = stored as Record<string, unknown>
  return reportParts.every((part) => typeof parts[part] === "object" && parts[part] !== null) && Array.isArray(parts["distributions"])
}

/** Runs stored before the privacy checks existed have no verdict, so their report could not say whether to share. */
const hasPrivacyChecks = (stored: EvaluationResults): boolean =>
  typeof (stored.privacy as Partial<EvaluationResults["privacy"]>).verdict === "object"

/**
 * POST /evaluations/quick/{generator_id}, POST /evaluations/run, GET /evaluations/{id} and its HTML report. A request appends
 * `evaluation.requested` (read-your-writes); the evaluation service does the work and stores the results as JSON in
 * the blob store. A quick evaluation waits for its outcome (EVALUATION_TIMEOUT), a run answers 202 at once.
 * Everything is scoped to the owner: another user's generator, dataset or evaluation is a 404.
 */
export class EvaluationService extends Context.Service<EvaluationService>()("@synth/gateway/EvaluationService", {
  make: Effect.gen(function* () {
    const datasets = yield* DatasetRepository
    const generators = yield* GeneratorRepository
    const evaluations = yield* EvaluationRepository
    const blobs = yield* BlobStore
    const requestEvents = yield* RequestEvents
    const ids = yield* Ids
    const config = yield* GatewayConfig

    const visibleGenerator = (id: string, owner: UserId) =>
      Effect.flatMap(generators.findVisible(id, owner), Option.match({
        onNone: () =>
          Effect.fail(new NotFound({ detail: `There is no generator ${quoted(id)} among yours. List them with GET /generators/.` })),
        onSome: Effect.succeed
      }))

    const completedGenerator = (row: GeneratorRow) =>
      row.status === "completed" ? Effect.succeed(row) : Effect.fail(
        new NotCompleted({
          detail: `Generator ${row.id} is ${row.status}; evaluation requires a completed generator.` +
            (row.status === "running" ? ` Poll GET /generators/${row.id} until its status is completed.` : "")
        })
      )

    /** The generator's own datasets, which a deletion may have removed since it completed. */
    const generatorDataset = (datasetId: string, owner: UserId, role: string, generatorId: string) =>
      Effect.flatMap(datasets.findVisible(datasetId, owner), Option.match({
        onNone: () =>
          Effect.fail(new NotFound({ detail: `Generator ${generatorId}'s ${role} dataset ${datasetId} was deleted; it cannot be evaluated.` })),
        onSome: Effect.succeed
      }))

    const visibleEvaluation = (id: string, owner: UserId) =>
      Effect.flatMap(evaluations.findVisible(id, owner), Option.match({
        onNone: () => Effect.fail(new NotFound({ detail: `There is no evaluation ${quoted(id)} among yours.` })),
        onSome: Effect.succeed
      }))

    const storedResults = (row: EvaluationRow) =>
      Effect.gen(function* () {
        const key = BlobKey.make(...row.resultsBlobKey!.split("/"))
        const text = yield* blobs.get(key).pipe(Stream.decodeText(), Stream.mkString)
        return JSON.parse(text) as unknown
      }).pipe(
        Effect.catchTags({
          BlobNotFound: () => Effect.fail(new NotFound({ detail: `The results of evaluation ${row.id} are gone.` })),
          BlobStoreError: Effect.die
        })
      )

    const request = (
      generator: GeneratorRow,
      owner: UserId,
      fields: {
        readonly kind: "quick" | "run"
        readonly holdoutDatasetId: string | null
        readonly sampleSize: number
        readonly mlUtility: MlUtilityConfig | null
      }
    ) =>
      Effect.gen(function* () {
        const evaluationId = EvaluationId.make(yield* ids.next)
        const privacy = generatorPrivacyOf(generator)
        yield* requestEvents.commit(
          [{
            type: "evaluation.requested",
            version: 1,
            payload: {
              evaluationId,
              ownerId: owner,
              generatorId: GeneratorId.make(generator.id),
              kind: fields.kind,
              realDatasetId: DatasetId.make(generator.datasetId),
              syntheticDatasetId: DatasetId.make(generator.outputDatasetId),
              holdoutDatasetId: fields.holdoutDatasetId === null ? null : DatasetId.make(fields.holdoutDatasetId),
              sampleSize: fields.sampleSize,
              mlUtility: fields.mlUtility,
              // Deterministic: a run's samples and privacy metrics follow its random_state, and a quick evaluation of
              // the same generator always samples the same rows.
              seed: fields.mlUtility?.randomState ?? 0,
              generatorType: generator.generatorType as GeneratorType,
              ...(privacy === undefined ? {} : { generatorPrivacy: privacy })
            }
          }],
          {
            aggregateId: evaluationId,
            actor: userActor(owner),
            notVisibleDetail: `The evaluation was accepted as ${evaluationId} but is not visible yet. Poll GET /evaluations/${evaluationId}.`
          }
        )
        return evaluationId
      })

    const awaitOutcome = (id: string, owner: UserId) =>
      evaluations.findVisible(id, owner).pipe(
        Effect.flatMap((row) =>
          Option.isSome(row) && row.value.status === "running" ? Effect.fail("running" as const) : Effect.succeed(row)
        ),
        Effect.retry(outcomePoll),
        Effect.timeoutOption(config.evaluationTimeout),
        Effect.map(Option.flatten),
        Effect.catch(() => Effect.succeed(Option.none<EvaluationRow>()))
      )

    const quick = Effect.fn("EvaluationService.quick")(function* (generatorId: string, owner: UserId) {
      const generator = yield* completedGenerator(yield* visibleGenerator(generatorId, owner))
      yield* generatorDataset(generator.datasetId, owner, "training", generator.id)
      yield* generatorDataset(generator.outputDatasetId, owner, "output", generator.id)
      const evaluationId = yield* request(generator, owner, {
        kind: "quick",
        holdoutDatasetId: null,
        sampleSize: evaluationBounds.sampleSize.default,
        mlUtility: null
      })
      const outcome = yield* awaitOutcome(evaluationId, owner)
      if (Option.isNone(outcome)) {
        const pending: EvaluationAccepted = { evaluation_id: evaluationId, generator_id: GeneratorId.make(generator.id), status: "running" }
        return stillRunning(pending)
      }
      const row = outcome.value
      if (row.error !== null) {
        const detail = `Evaluation ${evaluationId} failed: ${row.error.message}`
        return yield* row.error.code === "dataset_unavailable" ? new NotFound({ detail }) : new UnableToAnalyze({ detail })
      }
      return finished(quickResult(evaluationId, generator.id, yield* storedResults(row)))
    })

    const run = Effect.fn("EvaluationService.run")(function* (owner: UserId, body: EvaluationRunRequest) {
      const generator = yield* visibleGenerator(body.generator_id, owner)
      const dataset = yield* Effect.flatMap(datasets.findVisible(body.dataset_id, owner), Option.match({
        onNone: () =>
          Effect.fail(new NotFound({ detail: `There is no dataset ${quoted(body.dataset_id)} among yours. List them with GET /datasets/.` })),
        onSome: Effect.succeed
      }))
      if (dataset.status !== "uploaded") {
        return yield* new NotCompleted({
          detail: `Dataset ${dataset.id} is still being processed. Poll GET /datasets/${dataset.id} until its status is uploaded.`
        })
      }
      yield* completedGenerator(generator)
      const training = yield* generatorDataset(generator.datasetId, owner, "training", generator.id)
      yield* generatorDataset(generator.outputDatasetId, owner, "output", generator.id)
      if (dataset.id !== training.id && dataset.source === "synthetic") {
        return yield* new ValidationFailed({
          detail: "dataset_id must be real data: the generator's training dataset, or uploaded rows it never saw (a holdout).",
          errors: [{ field: "dataset_id", message: "is a synthetic dataset; give the training dataset or an uploaded holdout" }]
        })
      }
      const names = (columns: typeof dataset.columns) => (columns ?? []).map((column) => column.name)
      const valid = yield* Result.match(
        validateRun(body, { trainingColumns: names(training.columns), datasetColumns: names(dataset.columns) }),
        { onFailure: Effect.fail, onSuccess: Effect.succeed }
      )
      const evaluationId = yield* request(generator, owner, {
        kind: "run",
        holdoutDatasetId: dataset.id === training.id ? null : dataset.id,
        sampleSize: valid.sampleSize,
        mlUtility: valid.mlUtility
      })
      const accepted: EvaluationRunAccepted = { evaluation_id: evaluationId, status: "running" }
      return accepted
    })

    const get = Effect.fn("EvaluationService.get")(function* (id: string, owner: UserId) {
      const row = yield* visibleEvaluation(id, owner)
      const results = row.status === "completed" ? shownResults(row.kind, yield* storedResults(row)) : null
      const record: Evaluation = {
        evaluation_id: EvaluationId.make(row.id),
        generator_id: GeneratorId.make(row.generatorId),
        dataset_id: DatasetId.make(row.holdoutDatasetId ?? row.realDatasetId),
        kind: row.kind,
        status: row.status,
        created_at: row.createdAt,
        completed_at: row.completedAt,
        error: row.error,
        real_dataset_id: DatasetId.make(row.realDatasetId),
        synthetic_dataset_id: DatasetId.make(row.syntheticDatasetId),
        holdout_dataset_id: row.holdoutDatasetId === null ? null : DatasetId.make(row.holdoutDatasetId),
        evaluation_sample_size: row.sampleSize,
        ml_utility_config: row.mlUtility,
        overall_score: row.overallScore,
        quality_level: row.qualityLevel,
        privacy_score: row.privacyScore,
        safe_to_share: row.kind === "run" && results !== null ? safeToShareOf(results) : null,
        results
      }
      return record
    })

    const report = Effect.fn("EvaluationService.report")(function* (id: string, owner: UserId) {
      const row = yield* visibleEvaluation(id, owner)
      if (row.kind === "quick") {
        return yield* new NotCompleted({
          detail: `Evaluation ${row.id} is a quick evaluation, which has no distributions, ML utility or privacy parts; ` +
            `the visual report is for evaluation runs. POST /evaluations/run with generator_id ${row.generatorId}, ` +
            `then GET /evaluations/{evaluation_id}/report once it completes.`
        })
      }
      if (row.status === "running") {
        return yield* new NotCompleted({
          detail: `Evaluation ${row.id} is still running. Poll GET /evaluations/${row.id} until its status is completed.`
        })
      }
      if (row.status === "failed") {
        return yield* new NotCompleted({
          detail: `Evaluation ${row.id} failed (${row.error?.message ?? "no reason recorded"}), so it has no report. ` +
            `Fix the cause and POST /evaluations/run again.`
        })
      }
      const results = yield* storedResults(row)
      if (!hasReportParts(results)) {
        return yield* new NotCompleted({
          detail: `Evaluation ${row.id} was stored before the report existed and lacks the distributions and ` +
            `correlations it draws. POST /evaluations/run again with the same request for a report.`
        })
      }
      if (!hasPrivacyChecks(results)) {
        return yield* new NotCompleted({
          detail: `Evaluation ${row.id} was stored before the privacy checks (disclosure, attribute inference, the ` +
            `safe-to-share verdict) existed. POST /evaluations/run again with the same request for a report with them.`
        })
      }
      const generator = yield* generators.findVisible(row.generatorId, owner)
      // The report's renderer loads with the first report asked for, not with the gateway.
      const { renderEvaluationReport } = yield* Effect.promise(() => import("@synth/evaluation"))
      const html = renderEvaluationReport({
        evaluationId: row.id,
        generatorId: row.generatorId,
        ...(Option.isSome(generator) ? { generatorType: generator.value.generatorType } : {}),
        createdAt: row.createdAt,
        results
      })
      return { evaluationId: row.id, html }
    })

    return { quick, run, get, report } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([DatasetRepository.layer, GeneratorRepository.layer, EvaluationRepository.layer, RequestEvents.layer, Ids.layer]))
}
