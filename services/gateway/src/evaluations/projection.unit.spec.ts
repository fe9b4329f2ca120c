import { describe, expect, it } from "@effect/vitest"
import type { DatasetId, DomainEvent, EvaluationId, GeneratorId, UserId } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { migrationSet, runMigrations } from "@synth/sql"
import { layerEmbeddedTest } from "@synth/sql/testing"
import { Cause, Effect, Exit, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { UndecodableRow } from "../readModelRows.ts"
import { EvaluationRepository } from "./EvaluationRepository.ts"
import { evaluationMigrations } from "./migrations.ts"
import { applyEvaluationEvents } from "./projection.ts"

const owner = "01900000-0000-7000-8000-000000000001" as UserId
const stranger = "01900000-0000-7000-8000-000000000002" as UserId
const evaluationId = "01900000-0000-7000-8000-0000000000e1" as EvaluationId
const generatorId = "01900000-0000-7000-8000-0000000000a1" as GeneratorId
const real = "01900000-0000-7000-8000-0000000000d1" as DatasetId
const synthetic = "01900000-0000-7000-8000-0000000000d2" as DatasetId
const holdout = "01900000-0000-7000-8000-0000000000d3" as DatasetId

const at = (occurredAt: string) => ({ envelope: { occurredAt } }) as unknown as StoredEvent

const requested: DomainEvent = {
  type: "evaluation.requested",
  version: 1,
  payload: {
    evaluationId,
    ownerId: owner,
    generatorId,
    kind: "run",
    realDatasetId: real,
    syntheticDatasetId: synthetic,
    holdoutDatasetId: holdout,
    sampleSize: 5_000,
    mlUtility: { algorithms: ["random_forest", "xgboost"], testSize: 0.25, crossValidationFolds: 3, randomState: 7, targetColumn: null },
    seed: 12
  }
}

const completed: DomainEvent = {
  type: "evaluation.completed",
  version: 1,
  payload: {
    evaluationId,
    resultsBlobKey: `evaluations/${evaluationId}/results`,
    sha256: "ab",
    size: 10,
    overallScore: 0.83,
    qualityLevel: "Good",
    privacyScore: 0.9,
    durationMs: 1234
  }
}

const failed: DomainEvent = {
  type: "evaluation.failed",
  version: 1,
  payload: { evaluationId, reason: "dataset_unavailable", message: "The holdout dataset's table is gone." }
}

const TestLayer = EvaluationRepository.layer.pipe(Layer.provideMerge(layerEmbeddedTest))

const migrated = Effect.asVoid(runMigrations([migrationSet("gateway", evaluationMigrations)]))

const find = (ownerId: string) => Effect.flatMap(EvaluationRepository, (repository) => repository.findVisible(evaluationId, ownerId))

describe("the evaluations projection", () => {
  it.effect("records a request as running, with the ML utility settings as the API shows them", () =>
    Effect.gen(function* () {
      yield* migrated
      yield* applyEvaluationEvents([{ event: requested, meta: at("2026-01-01T00:00:00.000Z") }])
      const row = Option.getOrThrow(yield* find(owner))
      expect(row).toMatchObject({
        id: evaluationId,
        ownerId: owner,
        generatorId,
        kind: "run",
        realDatasetId: real,
        syntheticDatasetId: synthetic,
        holdoutDatasetId: holdout,
        sampleSize: 5_000,
        seed: 12,
        status: "running",
        resultsBlobKey: null,
        overallScore: null,
        error: null,
        createdAt: "2026-01-01T00:00:00.000Z",
        completedAt: null
      })
      expect(row.mlUtility).toEqual({
        algorithms: ["random_forest", "xgboost"],
        test_size: 0.25,
        cross_validation_folds: 3,
        random_state: 7,
        target_column: null
      })
    }).pipe(Effect.provide(TestLayer)))

  it.effect("completes once: the results' key and scores; a later failure and a replayed request change nothing", () =>
    Effect.gen(function* () {
      yield* migrated
      yield* applyEvaluationEvents([{ event: requested, meta: at("2026-01-01T00:00:00.000Z") }])
      yield* applyEvaluationEvents([{ event: completed, meta: at("2026-01-01T00:00:05.000Z") }])
      yield* applyEvaluationEvents([{ event: failed, meta: at("2026-01-01T00:00:06.000Z") }])
      yield* applyEvaluationEvents([{ event: requested, meta: at("2026-01-01T00:00:07.000Z") }])
      const row = Option.getOrThrow(yield* find(owner))
      expect(row).toMatchObject({
        status: "completed",
        resultsBlobKey: `evaluations/${evaluationId}/results`,
        overallScore: 0.83,
        qualityLevel: "Good",
        privacyScore: 0.9,
        durationMs: 1234,
        error: null,
        createdAt: "2026-01-01T00:00:00.000Z",
        completedAt: "2026-01-01T00:00:05.000Z"
      })
    }).pipe(Effect.provide(TestLayer)))

  it.effect("records a failure with its reason as the error code", () =>
    Effect.gen(function* () {
      yield* migrated
      yield* applyEvaluationEvents([{ event: requested, meta: at("2026-01-01T00:00:00.000Z") }])
      yield* applyEvaluationEvents([{ event: failed, meta: at("2026-01-01T00:00:02.000Z") }])
      yield* applyEvaluationEvents([{ event: completed, meta: at("2026-01-01T00:00:03.000Z") }])
      const row = Option.getOrThrow(yield* find(owner))
      expect(row.status).toBe("failed")
      expect(row.error).toEqual({ code: "dataset_unavailable", message: "The holdout dataset's table is gone." })
      expect(row.resultsBlobKey).toBeNull()
      expect(row.completedAt).toBe("2026-01-01T00:00:02.000Z")
    }).pipe(Effect.provide(TestLayer)))

  it.effect("shows an evaluation to its owner only; an id that is not a UUID finds nothing", () =>
    Effect.gen(function* () {
      yield* migrated
      yield* applyEvaluationEvents([{ event: { ...requested, payload: { ...requested.payload, kind: "quick", mlUtility: null, holdoutDatasetId: null } } as DomainEvent, meta: at("2026-01-01T00:00:00.000Z") }])
      expect(Option.isNone(yield* find(stranger))).toBe(true)
      const row = Option.getOrThrow(yield* find(owner))
      expect([row.kind, row.mlUtility, row.holdoutDatasetId]).toEqual(["quick", null, null])
      const repository = yield* EvaluationRepository
      expect(Option.isNone(yield* repository.findVisible("not-a-uuid", owner))).toBe(true)
    }).pipe(Effect.provide(TestLayer)))

  it.effect("dies with UndecodableRow when a row holds what the repository's schema refuses", () =>
    Effect.gen(function* () {
      yield* migrated
      yield* applyEvaluationEvents([{ event: requested, meta: at("2026-01-01T00:00:00.000Z") }])
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE evaluations SET status = 'paused' WHERE id = ${evaluationId}`
      const exit = yield* Effect.exit(find(owner))
      const defect = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
      expect(defect).toBeInstanceOf(UndecodableRow)
      expect((defect as UndecodableRow).message).toMatch(/^A row of evaluations does not decode: .*\["status"\]/s)
    }).pipe(Effect.provide(TestLayer)))
})
