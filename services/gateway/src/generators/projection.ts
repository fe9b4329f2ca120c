import { SqlClient } from "effect/sql"
import { type ConsumedEvent, consumedBy, type DomainEvent } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { GeneratorJob } from "@synth/jobs"
import { absurd, Effect } from "effect"
import { type LifecycleColumns, lifecycleOf } from "./lifecycle.ts"

const projected = consumedBy("generatorsProjection")

type ProjectedEvent = ConsumedEvent<"generatorsProjection">

/** The job's lifecycle as the rows keep it, with the sample the event names (if it names one). */
const lifecycleInRows = (event: ProjectedEvent) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [row] = yield* sql<LifecycleColumns>`
      SELECT id, status, attempts, phase FROM generators WHERE id = ${event.payload.generatorId}`
    if (row === undefined) return GeneratorJob.initialState
    if (event.type !== "generator.sampled" && event.type !== "generator.sample-failed" && event.type !== "generator.sample-requested") {
      return lifecycleOf(row)
    }
    const sampleId = event.payload.outputDatasetId
    const outputs = yield* sql<{ readonly status: GeneratorJob.SampleStatus }>`
      SELECT status FROM generator_outputs WHERE dataset_id = ${sampleId} AND kind = 'sample'`
    return lifecycleOf(row, new Map(outputs.map((output) => [sampleId, output.status])))
  })

/**
 * Maps generator events onto `generators` and `generator_outputs`. Whether an event changes the job is the
 * decider's to say (`GeneratorJob.applies`, asked of the lifecycle the rows keep): the first outcome wins, only the
 * running attempt reports, a redelivered or replayed event that already counted changes nothing. What counts is
 * written as it is: a requeued job starts over (phase queued, progress 0, its losses cleared); progress never goes
 * backwards and an epoch's losses are recorded once, so a report applied again (`synth replay --from`) changes
 * nothing; a deletion (its owner being forgotten) removes the generator's rows.
 */
export const applyGeneratorEvent = (event: DomainEvent, meta: StoredEvent) =>
  Effect.gen(function* () {
    if (!projected(event)) return
    if (!GeneratorJob.applies(yield* lifecycleInRows(event), event)) return
    yield* writeRows(event, meta.envelope.occurredAt)
  })

const writeRows = (event: ProjectedEvent, at: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    switch (event.type) {
      case "generator.requested": {
        const job = event.payload
        const parameters = {
          num_rows: job.parameters.numRows,
          epochs: job.parameters.epochs,
          batch_size: job.parameters.batchSize,
          target_epsilon: job.parameters.targetEpsilon
        }
        // A request from before the protections existed has no settings: its record says so (protections null).
        const privacy = job.protection === undefined ? null : JSON.stringify({ protections: job.protection })
        const rules = JSON.stringify({ constraints: job.constraints ?? [], conditions: job.conditions ?? null })
        const conditions = job.conditions === undefined ? null : JSON.stringify(job.conditions)
        yield* sql`
          INSERT INTO generators (id, owner_id, dataset_id, generator_type, parameters, seed, status, phase, progress,
            output_dataset_id, estimated_seconds, privacy, rules, created_at, updated_at)
          VALUES (${job.generatorId}, ${job.ownerId}, ${job.datasetId}, ${job.generatorType},
            ${JSON.stringify(parameters)}::jsonb, ${job.seed}, 'running', 'queued', 0, ${job.outputDatasetId},
            ${job.estimatedSeconds}, ${privacy}::jsonb, ${rules}::jsonb, ${at}, ${at})
          ON CONFLICT DO NOTHING`
        yield* sql`
          INSERT INTO generator_outputs (dataset_id, generator_id, owner_id, kind, num_rows, seed, status, conditions, created_at)
          VALUES (${job.outputDatasetId}, ${job.generatorId}, ${job.ownerId}, 'generation', ${job.parameters.numRows},
            ${job.seed}, 'running', ${conditions}::jsonb, ${at})
          ON CONFLICT DO NOTHING`
        return
      }
      case "generator.started":
        yield* sql`
          UPDATE generators SET attempts = ${event.payload.attempt}, phase = 'fitting',
            started_at = COALESCE(started_at, ${at}), updated_at = ${at}
          WHERE id = ${event.payload.generatorId}`
        return
      case "generator.prepared": {
        const { columns, generatorId, holdoutRows, scan, trainingRows } = event.payload
        const prepared = JSON.stringify({ rolesFrom: scan, trainingRows, holdoutRows })
        yield* sql`
          UPDATE generators SET columns = ${JSON.stringify(columns)}::jsonb,
            privacy = COALESCE(privacy, '{}'::jsonb) || ${prepared}::jsonb, updated_at = ${at}
          WHERE id = ${generatorId}`
        return
      }
      case "generator.progressed": {
        const { generatorId, losses, phase, progress } = event.payload
        // Epochs already recorded are not appended again: `synth replay --from` re-applies events over the rows.
        const firstEpoch = losses[0]?.epoch ?? 0
        yield* sql`
          UPDATE generators SET phase = ${phase}, progress = GREATEST(progress, ${progress}),
            loss_history = CASE WHEN COALESCE((loss_history -> -1 ->> 'epoch')::int, 0) < ${firstEpoch}
              THEN loss_history || ${JSON.stringify(losses)}::jsonb ELSE loss_history END,
            updated_at = ${at}
          WHERE id = ${generatorId}`
        return
      }
      case "generator.requeued":
        yield* sql`
          UPDATE generators SET phase = 'queued', progress = 0, loss_history = '[]'::jsonb, updated_at = ${at}
          WHERE id = ${event.payload.generatorId}`
        return
      case "generator.completed": {
        const { generatorId, model, privacy, protection, timings } = event.payload
        const stored = { format: model.format, version: model.formatVersion, size: model.size, ...(privacy ? { privacy } : {}) }
        const counts = JSON.stringify(protection === undefined ? {} : { counts: protection })
        yield* sql`
          UPDATE generators SET status = 'completed', phase = NULL, progress = 100, model = ${JSON.stringify(stored)}::jsonb,
            fit_ms = ${timings.fitMs}, sample_ms = ${timings.sampleMs}, total_ms = ${timings.totalMs},
            privacy = CASE WHEN privacy IS NULL THEN NULL ELSE privacy || ${counts}::jsonb END, updated_at = ${at}
          WHERE id = ${generatorId}`
        yield* sql`UPDATE generator_outputs SET status = 'completed' WHERE dataset_id = ${event.payload.outputDatasetId}`
        return
      }
      case "generator.failed":
      case "generator.cancelled": {
        const generatorId = event.payload.generatorId
        const status = event.type === "generator.failed" ? "failed" : "cancelled"
        const error = event.type === "generator.failed"
          ? JSON.stringify({ reason: event.payload.reason, message: event.payload.message })
          : null
        yield* sql`
          UPDATE generators SET status = ${status}, phase = NULL, error = ${error}::jsonb, updated_at = ${at}
          WHERE id = ${generatorId}`
        yield* sql`UPDATE generator_outputs SET status = ${status} WHERE generator_id = ${generatorId} AND kind = 'generation'`
        return
      }
      case "generator.sample-requested": {
        const sample = event.payload
        yield* sql`
          INSERT INTO generator_outputs (dataset_id, generator_id, owner_id, kind, num_rows, seed, status, conditions, created_at)
          VALUES (${sample.outputDatasetId}, ${sample.generatorId}, ${sample.ownerId}, 'sample', ${sample.numRows},
            ${sample.seed}, 'running', ${sample.conditions === undefined ? null : JSON.stringify(sample.conditions)}::jsonb, ${at})
          ON CONFLICT DO NOTHING`
        return
      }
      case "generator.sampled":
        yield* sql`UPDATE generator_outputs SET status = 'completed' WHERE dataset_id = ${event.payload.outputDatasetId}`
        return
      case "generator.sample-failed":
        yield* sql`
          UPDATE generator_outputs SET status = 'failed', error = ${event.payload.message},
            error_reason = ${event.payload.reason ?? null}
          WHERE dataset_id = ${event.payload.outputDatasetId}`
        return
      case "generator.deleted":
        yield* sql`DELETE FROM generator_outputs WHERE generator_id = ${event.payload.generatorId}`
        yield* sql`DELETE FROM generators WHERE id = ${event.payload.generatorId}`
        return
      default:
        return absurd<void>(event)
    }
  })
