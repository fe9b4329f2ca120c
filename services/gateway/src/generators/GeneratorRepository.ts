import type { GenerationFailureReason, PrivacySpent, ProtectionCounts, ProtectionSettings, ResolvedColumn } from "@synth/contracts"
import { SqlClient } from "effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import { isUuid } from "../datasets/DatasetRepository.ts"

export interface GeneratorRow {
  readonly id: string
  readonly ownerId: string
  readonly datasetId: string
  readonly generatorType: string
  readonly parameters: {
    readonly num_rows: number
    readonly epochs: number | null
    readonly batch_size: number | null
    readonly target_epsilon: number | null
  }
  readonly seed: number
  readonly status: "running" | "completed" | "failed" | "cancelled"
  readonly phase: "queued" | "fitting" | "sampling" | null
  readonly progress: number
  readonly attempts: number
  readonly outputDatasetId: string
  readonly estimatedSeconds: number
  readonly lossHistory: ReadonlyArray<{ readonly epoch: number; readonly losses: Readonly<Record<string, number>> }>
  readonly startedAt: string | null
  readonly fitMs: number | null
  readonly sampleMs: number | null
  readonly totalMs: number | null
  /** The model's format and size, and (dp-ctgan) what its training spent in privacy, as the projection stored them. */
  readonly model: {
    readonly format: string
    readonly version: number
    readonly size: number
    readonly privacy?: typeof PrivacySpent.Type
  } | null
  readonly error: { readonly reason: GenerationFailureReason; readonly message: string } | null
  /** Each column's resolved role and handling, once the job resolved them. */
  readonly columns: ReadonlyArray<ResolvedColumn> | null
  /** The protections asked for, then what the job's preparation and completion reported; null before they existed. */
  readonly privacy: {
    readonly protections?: ProtectionSettings
    readonly rolesFrom?: "basic" | "enhanced" | "generation"
    readonly trainingRows?: number
    readonly holdoutRows?: number
    readonly counts?: ProtectionCounts
  } | null
  /** The request's constraints and conditions as given; null for generators older than them. */
  readonly rules: {
    readonly constraints: ReadonlyArray<Readonly<Record<string, unknown>>>
    readonly conditions: Readonly<Record<string, unknown>> | null
  } | null
  readonly createdAt: string
  readonly updatedAt: string
}

export interface OutputRow {
  readonly datasetId: string
  readonly generatorId: string
  readonly kind: "generation" | "sample"
  readonly numRows: number
  readonly seed: number
  readonly status: "running" | "completed" | "failed" | "cancelled"
  readonly error: string | null
  /** Why it failed (the sample-failed event's reason); null otherwise, and for failures logged before reasons. */
  readonly errorReason: GenerationFailureReason | null
  /** What the output's rows meet, as requested; null when none. */
  readonly conditions: Readonly<Record<string, unknown>> | null
  readonly createdAt: string
}

/** Queries on the generator read model, scoped to the owner. SQL errors are defects (answered as internal errors). */
export class GeneratorRepository extends Context.Service<GeneratorRepository>()("@synth/gateway/GeneratorRepository", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const columns = sql`
      id, owner_id AS "ownerId", dataset_id AS "datasetId", generator_type AS "generatorType", parameters,
      seed::float8 AS seed, status, phase, progress, attempts, output_dataset_id AS "outputDatasetId",
      estimated_seconds AS "estimatedSeconds", loss_history AS "lossHistory", started_at AS "startedAt",
      fit_ms AS "fitMs", sample_ms AS "sampleMs", total_ms AS "totalMs", model, error, columns, privacy, rules, created_at AS "createdAt",
      updated_at AS "updatedAt"`

    const outputColumns = sql`
      dataset_id AS "datasetId", generator_id AS "generatorId", kind, num_rows::float8 AS "numRows",
      seed::float8 AS seed, status, error, error_reason AS "errorReason", conditions, created_at AS "createdAt"`

    const findVisible = Effect.fn("GeneratorRepository.findVisible")(function* (id: string, ownerId: string) {
      if (!isUuid(id)) return Option.none<GeneratorRow>()
      const rows = yield* sql<GeneratorRow>`SELECT ${columns} FROM generators WHERE id = ${id} AND owner_id = ${ownerId}`
      return Option.fromNullishOr(rows[0])
    }, Effect.orDie)

    /** One page of the owner's generators, newest first (uuid v7 ids sort by time), after `before` if given. */
    const listVisible = Effect.fn("GeneratorRepository.listVisible")(function* (
      ownerId: string,
      options: { readonly limit: number; readonly before: Option.Option<string> }
    ) {
      const after = Option.match(options.before, { onNone: () => sql``, onSome: (id) => sql`AND id < ${id}` })
      return yield* sql<GeneratorRow>`
        SELECT ${columns} FROM generators WHERE owner_id = ${ownerId} ${after} ORDER BY id DESC LIMIT ${options.limit}`
    }, Effect.orDie)

    /** The samples drawn from these generators, oldest first. */
    const samplesOf = Effect.fn("GeneratorRepository.samplesOf")(function* (generatorIds: ReadonlyArray<string>) {
      if (generatorIds.length === 0) return []
      return yield* sql<OutputRow>`
        SELECT ${outputColumns} FROM generator_outputs
        WHERE generator_id IN ${sql.in(generatorIds)} AND kind = 'sample' ORDER BY created_at, dataset_id`
    }, Effect.orDie)

    /** The owner's output dataset with this id, whatever its state (what a dataset id not yet stored answers). */
    const findOutput = Effect.fn("GeneratorRepository.findOutput")(function* (datasetId: string, ownerId: string) {
      if (!isUuid(datasetId)) return Option.none<OutputRow>()
      const rows = yield* sql<OutputRow>`
        SELECT ${outputColumns} FROM generator_outputs WHERE dataset_id = ${datasetId} AND owner_id = ${ownerId}`
      return Option.fromNullishOr(rows[0])
    }, Effect.orDie)

    return { findVisible, listVisible, samplesOf, findOutput } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
