import { SqlClient, type SqlError } from "effect/sql"
import type { ConsumedEvent } from "@synth/contracts"
import { type EventsOf, jsonRows, type Writers } from "@synth/sql"
import { Effect } from "effect"

export type GeneratorEvent = ConsumedEvent<"generatorsProjection">

const settled = (status: "failed" | "cancelled", events: EventsOf<GeneratorEvent, "generator.failed" | "generator.cancelled">) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const outcomes = jsonRows(events, ({ event, meta }) => ({
      id: event.payload.generatorId,
      error: event.type === "generator.failed"
        ? { reason: event.payload.reason, message: event.payload.message }
        : null,
      at: meta.envelope.occurredAt
    }))
    return Effect.andThen(
      sql`
        UPDATE generators SET status = ${status}, phase = NULL, error = outcome.error, updated_at = outcome.at
        FROM jsonb_to_recordset(${outcomes}::jsonb) AS outcome(id uuid, error jsonb, at text)
        WHERE generators.id = outcome.id`,
      sql`
        UPDATE generator_outputs SET status = ${status}
        FROM jsonb_to_recordset(${outcomes}::jsonb) AS outcome(id uuid)
        WHERE generator_outputs.generator_id = outcome.id AND generator_outputs.kind = 'generation'`
    )
  })

/**
 * Writes the events the decider counted onto `generators` and `generator_outputs`, one statement or two per event
 * type and wave. What counts is written as it is: a requeued job starts over (phase queued, progress 0, its losses
 * cleared); progress never goes backwards and an epoch's losses are recorded once, so a report applied again
 * (`synth replay --from`) changes nothing; a deletion (its owner being forgotten) removes the generator's rows.
 */
export const rowWriters: Writers<GeneratorEvent, SqlError.SqlError, SqlClient.SqlClient> = {
  "generator.requested": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const jobs = jsonRows(events, ({ event: { payload: job }, meta }) => ({
        id: job.generatorId,
        owner_id: job.ownerId,
        dataset_id: job.datasetId,
        generator_type: job.generatorType,
        parameters: {
          num_rows: job.parameters.numRows,
          epochs: job.parameters.epochs,
          batch_size: job.parameters.batchSize,
          target_epsilon: job.parameters.targetEpsilon
        },
        seed: job.seed,
        output_dataset_id: job.outputDatasetId,
        num_rows: job.parameters.numRows,
        estimated_seconds: job.estimatedSeconds,
        // A request from before the protections existed has no settings: its record says so (protections null).
        privacy: job.protection === undefined ? null : { protections: job.protection },
        rules: { constraints: job.constraints ?? [], conditions: job.conditions ?? null },
        // As text, cast below: conditions given as null stay a jsonb null (a member holding null reads as SQL NULL).
        conditions: job.conditions === undefined ? null : JSON.stringify(job.conditions),
        at: meta.envelope.occurredAt
      }))
      const job = sql`jsonb_to_recordset(${jobs}::jsonb) AS job(id uuid, owner_id uuid, dataset_id uuid,
        generator_type text, parameters jsonb, seed bigint, output_dataset_id uuid, num_rows bigint,
        estimated_seconds float8, privacy jsonb, rules jsonb, conditions text, at text)`
      return Effect.andThen(
        sql`
          INSERT INTO generators (id, owner_id, dataset_id, generator_type, parameters, seed, status, phase, progress,
            output_dataset_id, estimated_seconds, privacy, rules, created_at, updated_at)
          SELECT id, owner_id, dataset_id, generator_type, parameters, seed, 'running', 'queued', 0,
            output_dataset_id, estimated_seconds, privacy, rules, at, at
          FROM ${job}
          ON CONFLICT DO NOTHING`,
        sql`
          INSERT INTO generator_outputs (dataset_id, generator_id, owner_id, kind, num_rows, seed, status, conditions,
            created_at)
          SELECT output_dataset_id, id, owner_id, 'generation', num_rows, seed, 'running', conditions::jsonb, at
          FROM ${job}
          ON CONFLICT DO NOTHING`
      )
    }),
  "generator.started": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const starts = jsonRows(events, ({ event: { payload }, meta }) => ({
        id: payload.generatorId,
        attempt: payload.attempt,
        at: meta.envelope.occurredAt
      }))
      return sql`
        UPDATE generators SET attempts = start.attempt, phase = 'fitting',
          started_at = COALESCE(generators.started_at, start.at), updated_at = start.at
        FROM jsonb_to_recordset(${starts}::jsonb) AS start(id uuid, attempt integer, at text)
        WHERE generators.id = start.id`
    }),
  "generator.prepared": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const preparations = jsonRows(events, ({ event: { payload }, meta }) => ({
        id: payload.generatorId,
        columns: payload.columns,
        prepared: { rolesFrom: payload.scan, trainingRows: payload.trainingRows, holdoutRows: payload.holdoutRows },
        at: meta.envelope.occurredAt
      }))
      return sql`
        UPDATE generators SET columns = preparation.columns,
          privacy = COALESCE(generators.privacy, '{}'::jsonb) || preparation.prepared,
          updated_at = preparation.at
        FROM jsonb_to_recordset(${preparations}::jsonb) AS preparation(id uuid, columns jsonb, prepared jsonb, at text)
        WHERE generators.id = preparation.id`
    }),
  "generator.progressed": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const reports = jsonRows(events, ({ event: { payload }, meta }) => ({
        id: payload.generatorId,
        phase: payload.phase,
        progress: payload.progress,
        first_epoch: payload.losses[0]?.epoch ?? 0,
        losses: payload.losses,
        at: meta.envelope.occurredAt
      }))
      // Epochs already recorded are not appended again: `synth replay --from` re-applies events over the rows.
      return sql`
        UPDATE generators SET phase = report.phase, progress = GREATEST(generators.progress, report.progress),
          loss_history = CASE WHEN COALESCE((generators.loss_history -> -1 ->> 'epoch')::int, 0) < report.first_epoch
            THEN generators.loss_history || report.losses ELSE generators.loss_history END,
          updated_at = report.at
        FROM jsonb_to_recordset(${reports}::jsonb)
          AS report(id uuid, phase text, progress integer, first_epoch integer, losses jsonb, at text)
        WHERE generators.id = report.id`
    }),
  "generator.requeued": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const requeues = jsonRows(events, ({ event: { payload }, meta }) => ({ id: payload.generatorId, at: meta.envelope.occurredAt }))
      return sql`
        UPDATE generators SET phase = 'queued', progress = 0, loss_history = '[]'::jsonb, updated_at = requeue.at
        FROM jsonb_to_recordset(${requeues}::jsonb) AS requeue(id uuid, at text)
        WHERE generators.id = requeue.id`
    }),
  "generator.completed": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const outcomes = jsonRows(events, ({ event: { payload }, meta }) => {
        const { model, privacy, protection, timings } = payload
        return {
          id: payload.generatorId,
          model: { format: model.format, version: model.formatVersion, size: model.size, ...(privacy ? { privacy } : {}) },
          fit_ms: timings.fitMs,
          sample_ms: timings.sampleMs,
          total_ms: timings.totalMs,
          counts: protection === undefined ? {} : { counts: protection },
          at: meta.envelope.occurredAt
        }
      })
      return Effect.andThen(
        sql`
          UPDATE generators SET status = 'completed', phase = NULL, progress = 100, model = outcome.model,
            fit_ms = outcome.fit_ms, sample_ms = outcome.sample_ms, total_ms = outcome.total_ms,
            privacy = CASE WHEN generators.privacy IS NULL THEN NULL ELSE generators.privacy || outcome.counts END,
            updated_at = outcome.at
          FROM jsonb_to_recordset(${outcomes}::jsonb) AS outcome(id uuid, model jsonb, fit_ms float8, sample_ms float8,
            total_ms float8, counts jsonb, at text)
          WHERE generators.id = outcome.id`,
        sql`UPDATE generator_outputs SET status = 'completed'
          WHERE dataset_id = ANY(${events.map(({ event }) => event.payload.outputDatasetId)}::uuid[])`
      )
    }),
  "generator.failed": (events) => settled("failed", events),
  "generator.cancelled": (events) => settled("cancelled", events),
  "generator.sample-requested": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const samples = jsonRows(events, ({ event: { payload: sample }, meta }) => ({
        dataset_id: sample.outputDatasetId,
        generator_id: sample.generatorId,
        owner_id: sample.ownerId,
        num_rows: sample.numRows,
        seed: sample.seed,
        conditions: sample.conditions === undefined ? null : JSON.stringify(sample.conditions),
        at: meta.envelope.occurredAt
      }))
      return sql`
        INSERT INTO generator_outputs (dataset_id, generator_id, owner_id, kind, num_rows, seed, status, conditions,
          created_at)
        SELECT dataset_id, generator_id, owner_id, 'sample', num_rows, seed, 'running', conditions::jsonb, at
        FROM jsonb_to_recordset(${samples}::jsonb) AS sample(dataset_id uuid, generator_id uuid, owner_id uuid,
          num_rows bigint, seed bigint, conditions text, at text)
        ON CONFLICT DO NOTHING`
    }),
  "generator.sampled": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql`UPDATE generator_outputs SET status = 'completed'
        WHERE dataset_id = ANY(${events.map(({ event }) => event.payload.outputDatasetId)}::uuid[])`),
  "generator.sample-failed": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const failures = jsonRows(events, ({ event: { payload } }) => ({
        dataset_id: payload.outputDatasetId,
        message: payload.message,
        reason: payload.reason ?? null
      }))
      return sql`
        UPDATE generator_outputs SET status = 'failed', error = failure.message, error_reason = failure.reason
        FROM jsonb_to_recordset(${failures}::jsonb) AS failure(dataset_id uuid, message text, reason text)
        WHERE generator_outputs.dataset_id = failure.dataset_id`
    }),
  "generator.deleted": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const ids = events.map(({ event }) => event.payload.generatorId)
      return Effect.andThen(
        sql`DELETE FROM generator_outputs WHERE generator_id = ANY(${ids}::uuid[])`,
        sql`DELETE FROM generators WHERE id = ANY(${ids}::uuid[])`
      )
    })
}
