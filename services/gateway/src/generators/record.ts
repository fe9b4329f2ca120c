import { DatasetId, type Generator, GeneratorId } from "@synth/contracts"
import { describeDuration } from "@synth/synth/planning"
import type { GeneratorRow, OutputRow } from "./GeneratorRepository.ts"

const elapsed = (from: string, to: string | null) => (to === null ? null : Date.parse(to) - Date.parse(from))

const personalRoles: ReadonlySet<string> = new Set(["identifier", "direct_identifier"])

/** What the generator's settings give away: personal columns kept as they are publish real values. */
const generatorWarnings = (row: GeneratorRow): Array<string> =>
  (row.columns ?? [])
    .filter((column) => personalRoles.has(column.role) && column.handling === "keep")
    .map((column) =>
      `Column ${column.name} (${column.piiType ?? "an identifier"}) is kept as it is (handling keep): the output ` +
      "holds real values of it, copied from the people in the dataset."
    )

/** The protections and what they did (null for a generator older than them, unless it is a dp-ctgan one). */
const privacyOf = (row: GeneratorRow): Generator["privacy"] => {
  const dp = row.model?.privacy
  if (row.privacy === null && dp === undefined) return null
  const protections = row.privacy?.protections
  const counts = row.privacy?.counts
  return {
    protections: protections === undefined ? null : {
      rare_category_threshold: protections.rareCategoryThreshold,
      value_protection: protections.valueProtection,
      rare_category_protection: protections.rareCategoryProtection,
      similarity_filter: protections.similarityFilter,
      holdout_share: protections.holdoutShare
    },
    roles_from: row.privacy?.rolesFrom ?? null,
    training_rows: row.privacy?.trainingRows ?? null,
    holdout_rows: row.privacy?.holdoutRows ?? null,
    filtered_rows: counts?.filteredRows ?? null,
    copies_kept: counts?.copiesKept ?? null,
    redrawn_values: counts?.redrawnValues ?? null,
    rare_category_rows: counts?.rareCategoryRows ?? null,
    target_epsilon: dp?.targetEpsilon ?? (row.generatorType === "dp-ctgan" ? row.parameters.target_epsilon : null),
    epsilon_spent: dp?.epsilonSpent ?? null,
    delta: dp?.delta ?? null,
    noise_multiplier: dp?.noiseMultiplier ?? null,
    steps: dp?.steps ?? null,
    stopped_early: dp?.stoppedEarly ?? null,
    budget: dp?.budget ?? null
  }
}

/** The generator resource of a read-model row and its samples (field meanings in contracts' Generator). */
export const generatorRecord = (row: GeneratorRow, samples: ReadonlyArray<OutputRow>): Generator => ({
  id: GeneratorId.make(row.id),
  status: row.status,
  progress: row.progress,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
  output_dataset_id: row.status === "completed" ? DatasetId.make(row.outputDatasetId) : null,
  phase: row.phase,
  generator_type: row.generatorType,
  dataset_id: DatasetId.make(row.datasetId),
  parameters: row.parameters,
  seed: row.seed,
  attempts: row.attempts,
  estimated_time: describeDuration(row.estimatedSeconds),
  loss_history: row.lossHistory,
  timings: {
    queued_ms: elapsed(row.createdAt, row.startedAt),
    fit_ms: row.fitMs,
    sample_ms: row.sampleMs,
    total_ms: row.totalMs
  },
  model: row.model === null ? null : { format: row.model.format, version: row.model.version, size: row.model.size },
  columns: row.columns?.map((column) => ({
    name: column.name,
    role: column.role,
    handling: column.handling,
    pii_type: column.piiType
  })) ?? null,
  warnings: generatorWarnings(row),
  privacy: privacyOf(row),
  error: row.error === null ? null : { code: "training_failed", ...row.error },
  samples: samples.map((sample) => ({
    output_dataset_id: DatasetId.make(sample.datasetId),
    num_rows: sample.numRows,
    seed: sample.seed,
    status: sample.status === "cancelled" ? "failed" : sample.status,
    created_at: sample.createdAt,
    error: sample.error,
    reason: sample.errorReason,
    conditions: sample.conditions
  })),
  constraints: row.rules?.constraints ?? [],
  conditions: row.rules?.conditions ?? null
})
