import { GenerationFailureReason, PrivacySpent, ProtectionCounts, ProtectionSettings, ResolvedColumn } from "@synth/contracts"
import { SqlClient } from "effect/sql"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { rowsOf } from "../readModelRows.ts"
import { isUuid } from "../datasets/DatasetRepository.ts"

const JobStatus = Schema.Literals(["running", "completed", "failed", "cancelled"])

/** What a request's rules and a sample's conditions hold, as given (the worker parses them). */
const RuleObject = Schema.Record(Schema.String, Schema.Unknown)

/** A `generators` row as the repository reads it (bigint seeds cast to float8; jsonb comes back parsed). */
export const GeneratorRow = Schema.Struct({
  id: Schema.String,
  ownerId: Schema.String,
  datasetId: Schema.String,
  generatorType: Schema.String,
  parameters: Schema.Struct({
    num_rows: Schema.Number,
    epochs: Schema.NullOr(Schema.Number),
    batch_size: Schema.NullOr(Schema.Number),
    target_epsilon: Schema.NullOr(Schema.Number)
  }),
  seed: Schema.Number,
  status: JobStatus,
  phase: Schema.NullOr(Schema.Literals(["queued", "fitting", "sampling"])),
  progress: Schema.Number,
  attempts: Schema.Number,
  outputDatasetId: Schema.String,
  estimatedSeconds: Schema.Number,
  lossHistory: Schema.Array(Schema.Struct({ epoch: Schema.Number, losses: Schema.Record(Schema.String, Schema.Number) })),
  startedAt: Schema.NullOr(Schema.String),
  fitMs: Schema.NullOr(Schema.Number),
  sampleMs: Schema.NullOr(Schema.Number),
  totalMs: Schema.NullOr(Schema.Number),
  /** The model's format and size, and (dp-ctgan) what its training spent in privacy, as the projection stored them. */
  model: Schema.NullOr(Schema.Struct({
    format: Schema.String,
    version: Schema.Number,
    size: Schema.Number,
    privacy: Schema.optionalKey(PrivacySpent)
  })),
  error: Schema.NullOr(Schema.Struct({ reason: GenerationFailureReason, message: Schema.String })),
  /** Each column's resolved role and handling, once the job resolved them. */
  columns: Schema.NullOr(Schema.Array(ResolvedColumn)),
  /** The protections asked for, then what the job's preparation and completion reported; null before they existed. */
  privacy: Schema.NullOr(Schema.Struct({
    protections: Schema.optionalKey(ProtectionSettings),
    rolesFrom: Schema.optionalKey(Schema.Literals(["basic", "enhanced", "generation"])),
    trainingRows: Schema.optionalKey(Schema.Number),
    holdoutRows: Schema.optionalKey(Schema.Number),
    counts: Schema.optionalKey(ProtectionCounts)
  })),
  /** The request's constraints and conditions as given; null for generators older than them. */
  rules: Schema.NullOr(Schema.Struct({
    constraints: Schema.Array(RuleObject),
    conditions: Schema.NullOr(RuleObject)
  })),
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type GeneratorRow = typeof GeneratorRow.Type

/** A `generator_outputs` row: the dataset a generation or a sample writes. */
export const OutputRow = Schema.Struct({
  datasetId: Schema.String,
  generatorId: Schema.String,
  kind: Schema.Literals(["generation", "sample"]),
  numRows: Schema.Number,
  seed: Schema.Number,
  status: JobStatus,
  error: Schema.NullOr(Schema.String),
  /** Why it failed (the sample-failed event's reason); null otherwise, and for failures logged before reasons. */
  errorReason: Schema.NullOr(GenerationFailureReason),
  /** What the output's rows meet, as requested; null when none. */
  conditions: Schema.NullOr(RuleObject),
  createdAt: Schema.String
})
export type OutputRow = typeof OutputRow.Type

const generatorRows = rowsOf("generators", GeneratorRow)
const outputRows = rowsOf("generator_outputs", OutputRow)

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
      return yield* generatorRows.first(
        yield* sql`SELECT ${columns} FROM generators WHERE id = ${id} AND owner_id = ${ownerId}`
      )
    }, Effect.orDie)

    /** One page of the owner's generators, newest first (uuid v7 ids sort by time), after `before` if given. */
    const listVisible = Effect.fn("GeneratorRepository.listVisible")(function* (
      ownerId: string,
      options: { readonly limit: number; readonly before: Option.Option<string> }
    ) {
      const after = Option.match(options.before, { onNone: () => sql``, onSome: (id) => sql`AND id < ${id}` })
      return yield* generatorRows.all(yield* sql`
        SELECT ${columns} FROM generators WHERE owner_id = ${ownerId} ${after} ORDER BY id DESC LIMIT ${options.limit}`)
    }, Effect.orDie)

    /** The samples drawn from these generators, oldest first. */
    const samplesOf = Effect.fn("GeneratorRepository.samplesOf")(function* (generatorIds: ReadonlyArray<string>) {
      if (generatorIds.length === 0) return []
      return yield* outputRows.all(yield* sql`
        SELECT ${outputColumns} FROM generator_outputs
        WHERE generator_id IN ${sql.in(generatorIds)} AND kind = 'sample' ORDER BY created_at, dataset_id`)
    }, Effect.orDie)

    /** The owner's output dataset with this id, whatever its state (what a dataset id not yet stored answers). */
    const findOutput = Effect.fn("GeneratorRepository.findOutput")(function* (datasetId: string, ownerId: string) {
      if (!isUuid(datasetId)) return Option.none<OutputRow>()
      return yield* outputRows.first(yield* sql`
        SELECT ${outputColumns} FROM generator_outputs WHERE dataset_id = ${datasetId} AND owner_id = ${ownerId}`)
    }, Effect.orDie)

    return { findVisible, listVisible, samplesOf, findOutput } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
