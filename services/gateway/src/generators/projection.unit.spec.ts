// The generators projection as a mapping of the decider's events onto rows, over the real read model (PGlite):
// what the decider does not count changes no row, and applying a history again (redelivery, `synth replay`)
// leaves the rows as they were.
import { describe, expect, it } from "@effect/vitest"
import type { DatasetId, DomainEvent, GeneratorId, UserId } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { generatorEvents } from "@synth/jobs/testing"
import { migrationSet, runMigrations } from "@synth/sql"
import { layerEmbeddedTest } from "@synth/sql/testing"
import { Effect, Layer, Option } from "effect"
import { GeneratorRepository } from "./GeneratorRepository.ts"
import { generatorMigrations } from "./migrations.ts"
import { applyGeneratorEvents } from "./projection.ts"

const owner = "01900000-0000-7000-8000-000000000001" as UserId
const generatorId = "01900000-0000-7000-8000-0000000000a1" as GeneratorId
const outputDatasetId = "01900000-0000-7000-8000-0000000000d2" as DatasetId
const sampleDatasetId = "01900000-0000-7000-8000-0000000000d3" as DatasetId

const at = (second: number) => ({ envelope: { occurredAt: `2026-01-01T00:00:${String(second).padStart(2, "0")}.000Z` } }) as unknown as StoredEvent

const { completed, deleted, failed, progressed, requested, requeued, sampled, sampleFailed, sampleRequested, started } =
  generatorEvents({ generatorId, ownerId: owner, datasetId: "01900000-0000-7000-8000-0000000000d1" as DatasetId, outputDatasetId })

const TestLayer = GeneratorRepository.layer.pipe(Layer.provideMerge(layerEmbeddedTest))

const migrated = Effect.asVoid(runMigrations([migrationSet("gateway", generatorMigrations)]))

const applyAll = (events: ReadonlyArray<DomainEvent>) =>
  Effect.forEach(events, (event, index) => applyGeneratorEvents([{ event, meta: at(index) }]), { discard: true })

const rows = Effect.gen(function* () {
  const repository = yield* GeneratorRepository
  const generator = Option.getOrThrow(yield* repository.findVisible(generatorId, owner))
  const samples = yield* repository.samplesOf([generatorId])
  const output = Option.getOrThrow(yield* repository.findOutput(outputDatasetId, owner))
  return { generator, samples, output }
})

// Each test opens a PGlite read model of its own: seconds on a loaded machine, hence the long timeouts.
describe("the generators projection", () => {
  it.effect("maps a job's life onto its row: queued, fitting with progress and losses, completed", () =>
    Effect.gen(function* () {
      yield* migrated
      yield* applyAll([requested, started(1), progressed(1, 25, 1), progressed(1, 45, 2), completed(1)])
      const { generator, output } = yield* rows
      expect(generator).toMatchObject({ status: "completed", phase: null, progress: 100, attempts: 1, startedAt: "2026-01-01T00:00:01.000Z" })
      expect(generator.lossHistory.map((loss) => loss.epoch)).toEqual([1, 2])
      expect(output.status).toBe("completed")
    }).pipe(Effect.provide(TestLayer)), 120_000)

  it.effect("keeps the first outcome: a late failure changes neither the job nor its output", () =>
    Effect.gen(function* () {
      yield* migrated
      yield* applyAll([requested, started(1), completed(1), failed(1), progressed(1, 50, 3)])
      const { generator, output } = yield* rows
      expect(generator).toMatchObject({ status: "completed", error: null, progress: 100 })
      expect(output.status).toBe("completed")
    }).pipe(Effect.provide(TestLayer)), 120_000)

  it.effect("starts a requeued job over, and ignores the lost attempt's late reports", () =>
    Effect.gen(function* () {
      yield* migrated
      yield* applyAll([requested, started(1), progressed(1, 45, 2), requeued(2), progressed(1, 60, 3)])
      expect((yield* rows).generator).toMatchObject({ status: "running", phase: "queued", progress: 0, lossHistory: [], attempts: 1 })
      yield* applyAll([started(2), started(1), progressed(2, 25, 1)])
      expect((yield* rows).generator).toMatchObject({ phase: "fitting", progress: 25, attempts: 2 })
    }).pipe(Effect.provide(TestLayer)), 120_000)

  it.effect("records a sample's first outcome only", () =>
    Effect.gen(function* () {
      yield* migrated
      yield* applyAll([requested, started(1), completed(1), sampleRequested(sampleDatasetId), sampled(sampleDatasetId), sampleFailed(sampleDatasetId)])
      const { samples } = yield* rows
      expect(samples.map((sample) => [sample.datasetId, sample.status, sample.error])).toEqual([[sampleDatasetId, "completed", null]])
    }).pipe(Effect.provide(TestLayer)), 120_000)

  it.effect("leaves the rows as they were when a history is applied again (redelivery, replay)", () =>
    Effect.gen(function* () {
      yield* migrated
      const history = [requested, started(1), progressed(1, 45, 2), requeued(2), started(2), progressed(2, 65, 3), completed(2), sampleRequested(sampleDatasetId), sampled(sampleDatasetId)]
      yield* applyAll(history)
      const once = yield* rows
      yield* applyAll(history)
      yield* applyAll(history.slice(3))
      expect(yield* rows).toStrictEqual(once)
    }).pipe(Effect.provide(TestLayer)), 120_000)

  it.effect("removes a deleted generator's rows", () =>
    Effect.gen(function* () {
      yield* migrated
      yield* applyAll([requested, started(1), completed(1), sampleRequested(sampleDatasetId), deleted])
      const repository = yield* GeneratorRepository
      expect(Option.isNone(yield* repository.findVisible(generatorId, owner))).toBe(true)
      expect(yield* repository.samplesOf([generatorId])).toEqual([])
    }).pipe(Effect.provide(TestLayer)), 120_000)
})
