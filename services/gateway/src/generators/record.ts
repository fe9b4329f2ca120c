import type { DatasetId, Generator, GeneratorId } from "@synth/contracts"
import { describeDuration } from "@synth/synth"
import type { GeneratorRow, OutputRow } from "./GeneratorRepository.ts"

const elapsed = (from: string, to: string | null) => (to === null ? null : Date.parse(to) - Date.parse(from))

/** The generator resource of a read-model row and its samples (field meanings in contracts' Generator). */
export const generatorRecord = (row: GeneratorRow, samples: ReadonlyArray<OutputRow>): Generator => ({
  id: row.id as GeneratorId,
  status: row.status,
  progress: row.progress,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
  output_dataset_id: row.status === "completed" ? (row.outputDatasetId as DatasetId) : null,
  phase: row.phase,
  generator_type: row.generatorType,
  dataset_id: row.datasetId as DatasetId,
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
  privacy: row.model?.privacy === undefined ? null : {
    target_epsilon: row.model.privacy.targetEpsilon,
    epsilon_spent: row.model.privacy.epsilonSpent,
    delta: row.model.privacy.delta,
    noise_multiplier: row.model.privacy.noiseMultiplier,
    steps: row.model.privacy.steps,
    stopped_early: row.model.privacy.stoppedEarly
  },
  error: row.error === null ? null : { code: "training_failed", ...row.error },
  samples: samples.map((sample) => ({
    output_dataset_id: sample.datasetId as DatasetId,
    num_rows: sample.numRows,
    seed: sample.seed,
    status: sample.status === "cancelled" ? "failed" : sample.status,
    created_at: sample.createdAt,
    error: sample.error
  }))
})
