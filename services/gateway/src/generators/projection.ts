import { SqlClient } from "effect/sql"
import { consumedBy, type DomainEvent } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { absurd, Effect } from "effect"

const projected = consumedBy("generatorsProjection")

/**
 * Folds generator events into `generators` and `generator_outputs`. Idempotent and first-outcome-wins: the request
 * inserts ON CONFLICT DO NOTHING, every later event only moves a `running` row, progress only for the current
 * attempt and never backwards. A requeued job starts over: phase queued, progress 0, its losses cleared. A deletion
 * (its owner being forgotten) removes the generator's rows.
 */
export const applyGeneratorEvent = (event: DomainEvent, meta: StoredEvent) =>
  Effect.gen(function* () {
    if (!projected(event)) return
    const sql = yield* SqlClient.SqlClient
    const at = meta.envelope.occurredAt
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
          WHERE id = ${event.payload.generatorId} AND status = 'running' AND attempts < ${event.payload.attempt}`
        return
      case "generator.prepared": {
        const { attempt, columns, generatorId, holdoutRows, scan, trainingRows } = event.payload
        const prepared = JSON.stringify({ rolesFrom: scan, trainingRows, holdoutRows })
        yield* sql`
          UPDATE generators SET columns = ${JSON.stringify(columns)}::jsonb,
            privacy = COALESCE(privacy, '{}'::jsonb) || ${prepared}::jsonb, updated_at = ${at}
          WHERE id = ${generatorId} AND status = 'running' AND attempts = ${attempt}`
        return
      }
      case "generator.progressed": {
        const { attempt, generatorId, losses, phase, progress } = event.payload
        // Epochs already recorded are not appended again: `synth replay --from` re-applies events over the rows.
        const firstEpoch = losses[0]?.epoch ?? 0
        yield* sql`
          UPDATE generators SET phase = ${phase}, progress = GREATEST(progress, ${progress}),
            loss_history = CASE WHEN COALESCE((loss_history -> -1 ->> 'epoch')::int, 0) < ${firstEpoch}
              THEN loss_history || ${JSON.stringify(losses)}::jsonb ELSE loss_history END,
            updated_at = ${at}
          WHERE id = ${generatorId} AND status = 'running' AND attempts = ${attempt}`
        return
      }
      case "generator.requeued":
        yield* sql`
          UPDATE generators SET phase = 'queued', progress = 0, loss_history = '[]'::jsonb, updated_at = ${at}
          WHERE id = ${event.payload.generatorId} AND status = 'running'`
        return
      case "generator.completed": {
        const { generatorId, model, privacy, protection, timings } = event.payload
        const stored = { format: model.format, version: model.formatVersion, size: model.size, ...(privacy ? { privacy } : {}) }
        const counts = JSON.stringify(protection === undefined ? {} : { counts: protection })
        yield* sql`
          UPDATE generators SET status = 'completed', phase = NULL, progress = 100, model = ${JSON.stringify(stored)}::jsonb,
            fit_ms = ${timings.fitMs}, sample_ms = ${timings.sampleMs}, total_ms = ${timings.totalMs},
            privacy = CASE WHEN privacy IS NULL THEN NULL ELSE privacy || ${counts}::jsonb END, updated_at = ${at}
          WHERE id = ${generatorId} AND status = 'running'`
        yield* sql`
          UPDATE generator_outputs SET status = 'completed'
          WHERE dataset_id = ${event.payload.outputDatasetId} AND status = 'running'`
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
          WHERE id = ${generatorId} AND status = 'running'`
        yield* sql`
          UPDATE generator_outputs SET status = ${status}
          WHERE generator_id = ${generatorId} AND kind = 'generation' AND status = 'running'`
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
        yield* sql`
          UPDATE generator_outputs SET status = 'completed'
          WHERE dataset_id = ${event.payload.outputDatasetId} AND status = 'running'`
        return
      case "generator.sample-failed":
        yield* sql`
          UPDATE generator_outputs SET status = 'failed', error = ${event.payload.message},
            error_reason = ${event.payload.reason ?? null}
          WHERE dataset_id = ${event.payload.outputDatasetId} AND status = 'running'`
        return
      case "generator.deleted":
        yield* sql`DELETE FROM generator_outputs WHERE generator_id = ${event.payload.generatorId}`
        yield* sql`DELETE FROM generators WHERE id = ${event.payload.generatorId}`
        return
      default:
        return absurd<void>(event)
    }
  })
