import { SqlClient } from "@effect/sql"
import { EventLog, type EventLogError, type Position } from "@synth/eventlog"
import { Context, type Duration, Effect, Layer, Option, Schedule, type Scope } from "effect"
import { type CatchUpSummary, makeCatchUp, type OnProgress } from "./catchUp.ts"
import { cursorKey, makeCursors } from "./cursors.ts"
import { makeDrainPartition } from "./drainPartition.ts"
import { type ProjectionFailed, type ProjectionPosition, ProjectionTimeout, UnknownProjection } from "./errors.ts"
import { makeProgress } from "./progress.ts"
import type { AnyProjection } from "./Projection.ts"

export interface ProjectorService {
  /**
   * Follows the log for every projection and partition, forked into the scope: each applies its events in
   * transactions that also move its cursor. A failing projection logs the cause and retries with backoff.
   */
  readonly run: Effect.Effect<void, never, Scope.Scope>
  /**
   * Read-your-writes: succeeds once every projection that follows each position's topic has applied it (in this
   * process's view, updated on each commit); fails with `ProjectionTimeout` after `timeout`.
   */
  readonly waitFor: (
    positions: ReadonlyArray<Position>,
    timeout: Duration.DurationInput
  ) => Effect.Effect<void, ProjectionTimeout>
  /** Applies everything up to the end offsets seen at the start, then stops (`synth replay`). */
  readonly catchUp: (onProgress?: OnProgress) => Effect.Effect<CatchUpSummary, EventLogError | ProjectionFailed>
  /**
   * Empties the projections' tables and resets their cursors (one transaction per projection), then catches them
   * up. All projections when `names` is absent.
   */
  readonly rebuild: (
    names?: ReadonlyArray<string>,
    onProgress?: OnProgress
  ) => Effect.Effect<CatchUpSummary, EventLogError | ProjectionFailed | UnknownProjection>
}

// Exponential from 200 ms, at most 30 s apart; a minute without failing starts the backoff over.
const retrySchedule = Schedule.exponential("200 millis").pipe(
  Schedule.union(Schedule.spaced("30 seconds")),
  Schedule.resetAfter("1 minute")
)

const range = (count: number) => Array.from({ length: count }, (_, index) => index)

const make = (projections: ReadonlyArray<AnyProjection>) =>
  Effect.gen(function*() {
    const names = projections.map((projection) => projection.name)
    const duplicate = names.find((name, index) => names.indexOf(name) !== index)
    if (duplicate !== undefined) return yield* Effect.dieMessage(`two projections are named "${duplicate}"`)

    const sql = yield* SqlClient.SqlClient
    const log = yield* EventLog
    const cursors = makeCursors(sql)
    const progress = yield* makeProgress(yield* Effect.orDie(cursors.all))

    const drainPartition = makeDrainPartition(sql, log, cursors, progress)
    const catchUp = makeCatchUp(log, cursors, drainPartition)

    // One supervisor per projection and topic: a failure restarts that topic's partitions from their cursors.
    const followTopic = (projection: AnyProjection, topic: string) =>
      log.partitions(topic).pipe(
        Effect.flatMap((count) =>
          Effect.forEach(
            range(count),
            (partition) => drainPartition({ projection, key: cursorKey(projection.name, topic, partition) }),
            { concurrency: "unbounded", discard: true }
          )
        ),
        Effect.sandbox,
        Effect.tapError((cause) =>
          Effect.logError(`Projection ${projection.name} failed on ${topic}; retrying`, cause)
        ),
        Effect.retry(retrySchedule),
        Effect.annotateLogs({ projection: projection.name, topic })
      )

    const run = Effect.forEach(
      projections.flatMap((projection) => projection.topics.map((topic) => followTopic(projection, topic))),
      (follower) => Effect.forkScoped(follower),
      { discard: true }
    )

    const waitFor = Effect.fn("ProjectorRuntime.waitFor")(function*(
      positions: ReadonlyArray<Position>,
      timeout: Duration.DurationInput
    ) {
      const waits: ReadonlyArray<ProjectionPosition> = positions.flatMap((position) =>
        projections
          .filter((projection) => projection.topics.includes(position.topic))
          .map((projection) => ({ projection: projection.name, position }))
      )
      const applied = yield* Effect.timeoutOption(progress.awaitApplied(waits), timeout)
      if (Option.isNone(applied)) return yield* new ProjectionTimeout({ pending: yield* progress.pending(waits) })
    })

    const rebuild = Effect.fn("ProjectorRuntime.rebuild")(function*(
      names: ReadonlyArray<string> | undefined,
      onProgress: OnProgress
    ) {
      const known = projections.map((projection) => projection.name)
      const unknown = (names ?? []).filter((name) => !known.includes(name))
      if (unknown.length > 0) return yield* new UnknownProjection({ names: unknown, known })
      const selected = names === undefined
        ? projections
        : projections.filter((projection) => names.includes(projection.name))
      for (const projection of selected) {
        yield* Effect.logInfo(`Rebuilding projection ${projection.name}: emptying its tables, resetting its cursors`)
        const keys = yield* Effect.forEach(projection.topics, (topic) =>
          Effect.map(log.partitions(topic), (count) =>
            range(count).map((partition) => cursorKey(projection.name, topic, partition))))
        yield* Effect.gen(function*() {
          yield* cursors.reset(projection.name, keys.flat())
          // One statement for all tables, so foreign keys between them do not stop the truncate.
          const tables = sql.csv(projection.tables.map((table) => sql`${sql(table)}`))
          if (projection.tables.length > 0) yield* sql`TRUNCATE ${tables}`
        }).pipe(sql.withTransaction, Effect.orDie)
        yield* progress.forget(projection.name)
      }
      return yield* catchUp(selected, onProgress)
    })

    return {
      run,
      waitFor,
      catchUp: (onProgress = () => Effect.void) => catchUp(projections, onProgress),
      rebuild: (names, onProgress = () => Effect.void) => rebuild(names, onProgress)
    } satisfies ProjectorService
  })

/**
 * The projector runtime over a fixed set of projections; needs the read-model database (migrated: build it after
 * `layerMigrations`) and the event log.
 */
export class ProjectorRuntime extends Context.Tag("@synth/sql/ProjectorRuntime")<ProjectorRuntime, ProjectorService>() {
  static readonly layer = (
    projections: ReadonlyArray<AnyProjection>
  ): Layer.Layer<ProjectorRuntime, never, SqlClient.SqlClient | EventLog> =>
    Layer.effect(ProjectorRuntime, make(projections))

  /** Runs the projections in the background for the life of the layer (the gateway's read side). */
  static readonly layerRunning: Layer.Layer<never, never, ProjectorRuntime> = Layer.scopedDiscard(
    Effect.flatMap(ProjectorRuntime, (projector) => projector.run)
  )
}
