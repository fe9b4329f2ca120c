import { SqlClient } from "effect/sql"
import { EventLog, type EventLogError, type Position, retryRejoining, type StoredEvent } from "@synth/eventlog"
import { Context, DateTime, Duration, Effect, HashMap, Layer, Option, type Scope, Stream } from "effect"
import { type CatchUpSummary, makeCatchUp, type OnProgress } from "./catchUp.ts"
import { cursorKey, makeCursors } from "./cursors.ts"
import { makeDrainPartition } from "./drainPartition.ts"
import { type ProjectionFailed, type ProjectionPosition, ProjectionTimeout, UnknownProjection } from "./errors.ts"
import { makeProgress } from "./progress.ts"
import { type AnyProjection, type Projection, provideServices } from "./Projection.ts"

export interface ProjectorService {
  /**
   * Follows the log for every projection and partition, forked into the scope: each applies its events in
   * transactions that also move its cursor. A failing projection logs the cause and retries with backoff.
   */
  readonly run: Effect.Effect<void, never, Scope.Scope>
  /**
   * Read-your-writes: succeeds once every projection that follows each position's topic has applied it (in this
   * process's view, updated on each commit); fails with `ProjectionTimeout` after `timeout`. Projections that set
   * `readYourWrites: false` are not waited for.
   */
  readonly waitFor: (
    positions: ReadonlyArray<Position>,
    timeout: Duration.Input
  ) => Effect.Effect<void, ProjectionTimeout>
  /**
   * For a reader of a projection that writers do not wait for: succeeds once the named projections have applied
   * their topics up to the log's end as it is now, so the reader sees every event appended before it asked; fails
   * with `ProjectionTimeout` after `timeout`.
   */
  readonly awaitCaughtUp: (
    names: ReadonlyArray<string>,
    timeout: Duration.Input
  ) => Effect.Effect<void, ProjectionTimeout | EventLogError | UnknownProjection>
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
  /**
   * Re-applies every event from `since` on (by `occurredAt`) over what the projections hold, keeping their rows:
   * in each partition the cursor goes back to the first event that occurred at or after `since` (never forward),
   * then the projections catch up. Events before that offset are not read again. Sound because applying an event
   * a second time, followed by the events after it, leaves a projection as it was (the projections are idempotent
   * to re-application, not only to redelivery). All projections when `names` is absent.
   */
  readonly replayFrom: (
    since: DateTime.Utc,
    names?: ReadonlyArray<string>,
    onProgress?: OnProgress
  ) => Effect.Effect<CatchUpSummary, EventLogError | ProjectionFailed | UnknownProjection>
  /**
   * How far each projection is behind the log: per projection and topic, the log's end offsets minus the
   * projection's committed cursors (read from the database, so every replica's commits count), summed over partitions.
   */
  readonly lag: Effect.Effect<ReadonlyArray<ProjectionLag>, EventLogError>
}

export interface ProjectionLag {
  readonly projection: string
  readonly topic: string
  /** Events in the log the projection has not applied yet. */
  readonly events: number
}

const range = (count: number) => Array.from({ length: count }, (_, index) => index)

const make = (projections: ReadonlyArray<AnyProjection>) =>
  Effect.gen(function*() {
    const names = projections.map((projection) => projection.name)
    const duplicate = names.find((name, index) => names.indexOf(name) !== index)
    if (duplicate !== undefined) return yield* Effect.die(new Error(`two projections are named "${duplicate}"`))

    const sql = yield* SqlClient.SqlClient
    const log = yield* EventLog
    const cursors = makeCursors(sql)
    const progress = yield* makeProgress(yield* Effect.orDie(cursors.all))

    const unknownAfter = projections.flatMap((projection) => (projection.after ?? []).filter((name) => !names.includes(name)))
    if (unknownAfter.length > 0) return yield* Effect.die(new Error(`projections come after unknown ones: ${unknownAfter.join(", ")}`))

    const drainPartition = makeDrainPartition(sql, log, cursors, progress)

    /** The last position of each non-empty partition of the named projections' topics, as the log stands now. */
    const logEndsFor = (names: ReadonlyArray<string>) =>
      Effect.forEach(
        projections.filter((projection) => names.includes(projection.name)).flatMap((projection) =>
          projection.topics.map((topic) => ({ projection: projection.name, topic }))
        ),
        ({ projection, topic }) =>
          Effect.map(log.endOffsets(topic), (ends) =>
            ends.filter((end) => end.offset > 0).map((end): ProjectionPosition => ({
              projection,
              position: { topic, partition: end.partition, offset: end.offset - 1 }
            }))),
        { concurrency: "unbounded" }
      ).pipe(Effect.map((waits) => waits.flat()))

    /** Completes once the named projections have applied their topics up to the log's end as it is now. */
    const caughtUpWithLog = (names: ReadonlyArray<string>) => Effect.flatMap(logEndsFor(names), progress.awaitApplied)
    const catchUp = makeCatchUp(log, cursors, drainPartition)

    const beforeBatchOf = ({ after, afterFor }: AnyProjection) => {
      if (after === undefined) return undefined
      const waits = caughtUpWithLog(after)
      if (afterFor === undefined) return () => waits
      return (events: ReadonlyArray<StoredEvent>) =>
        events.some((event) => afterFor.includes(event.envelope.type)) ? waits : Effect.void
    }

    // One supervisor per projection and topic: a failure restarts that topic's partitions from their cursors.
    const followTopic = (projection: AnyProjection, topic: string) =>
      log.partitions(topic).pipe(
        Effect.flatMap((count) =>
          Effect.forEach(
            range(count),
            (partition) =>
              drainPartition({
                projection,
                key: cursorKey(projection.name, topic, partition),
                beforeBatch: beforeBatchOf(projection)
              }),
            { concurrency: "unbounded", discard: true }
          )
        ),
        retryRejoining(`Projection ${projection.name} failed on ${topic}; retrying`),
        Effect.annotateLogs({ projection: projection.name, topic })
      )

    const run = Effect.forEach(
      projections.flatMap((projection) => projection.topics.map((topic) => followTopic(projection, topic))),
      (follower) => Effect.forkScoped(follower),
      { discard: true }
    )

    /** Completes once every pair is applied; fails with `ProjectionTimeout` naming what is left after `timeout`. */
    const awaitAppliedWithin = (waits: ReadonlyArray<ProjectionPosition>, timeout: Duration.Input) =>
      Effect.timeoutOption(progress.awaitApplied(waits), timeout).pipe(
        Effect.flatMap(Option.match({
          onSome: () => Effect.void,
          onNone: () => Effect.flatMap(progress.pending(waits), (pending) => Effect.fail(new ProjectionTimeout({ pending })))
        }))
      )

    const waitFor = Effect.fn("ProjectorRuntime.waitFor")(function*(
      positions: ReadonlyArray<Position>,
      timeout: Duration.Input
    ) {
      const waits: ReadonlyArray<ProjectionPosition> = positions.flatMap((position) =>
        projections
          .filter((projection) => projection.readYourWrites !== false && projection.topics.includes(position.topic))
          .map((projection) => ({ projection: projection.name, position }))
      )
      return yield* awaitAppliedWithin(waits, timeout)
    })

    const awaitCaughtUp = Effect.fn("ProjectorRuntime.awaitCaughtUp")(function*(
      names: ReadonlyArray<string>,
      timeout: Duration.Input
    ) {
      yield* select(names)
      const waits = yield* logEndsFor(names)
      return yield* awaitAppliedWithin(waits, timeout)
    })

    const select = (names: ReadonlyArray<string> | undefined) => {
      const known = projections.map((projection) => projection.name)
      const unknown = (names ?? []).filter((name) => !known.includes(name))
      if (unknown.length > 0) return Effect.fail(new UnknownProjection({ names: unknown, known }))
      return Effect.succeed(names === undefined ? projections : projections.filter((projection) => names.includes(projection.name)))
    }

    const rebuild = Effect.fn("ProjectorRuntime.rebuild")(function*(
      names: ReadonlyArray<string> | undefined,
      onProgress: OnProgress
    ) {
      const selected = yield* select(names)
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

    // The first offset of a partition whose event occurred at or after `since` (its end offset when none did): a
    // scan from the start, since the log port has no index by time.
    const offsetAt = (topic: string, partition: number, end: number, since: DateTime.Utc) =>
      log.read({ topic, partition, fromOffset: 0, follow: false }).pipe(
        Stream.takeWhile((event) => event.offset < end),
        Stream.filter((event) => Date.parse(event.envelope.occurredAt) >= DateTime.toEpochMillis(since)),
        Stream.runHead,
        Effect.map(Option.match({ onNone: () => end, onSome: (event) => event.offset }))
      )

    const replayFrom = Effect.fn("ProjectorRuntime.replayFrom")(function*(
      since: DateTime.Utc,
      names: ReadonlyArray<string> | undefined,
      onProgress: OnProgress
    ) {
      const selected = yield* select(names)
      const topics = [...new Set(selected.flatMap((projection) => projection.topics))]
      const starts = yield* Effect.forEach(topics, (topic) =>
        Effect.flatMap(log.endOffsets(topic), (ends) =>
          Effect.forEach(ends, (end) =>
            Effect.map(offsetAt(topic, end.partition, end.offset, since), (offset) => ({ topic, partition: end.partition, offset })))))
      for (const projection of selected) {
        yield* Effect.logInfo(`Replaying projection ${projection.name} from ${DateTime.formatIso(since)}: keeping its rows`)
        yield* Effect.forEach(
          starts.flat().filter((start) => projection.topics.includes(start.topic)),
          (start) => cursors.rewind(cursorKey(projection.name, start.topic, start.partition), start.offset),
          { discard: true }
        ).pipe(sql.withTransaction, Effect.orDie)
        yield* progress.forget(projection.name)
      }
      return yield* catchUp(selected, onProgress)
    })

    const lag = Effect.gen(function*() {
      // Cursor keys are structural (Data.struct): a HashMap compares them by value, a Map would not.
      const committed = HashMap.fromIterable(yield* Effect.orDie(cursors.all))
      const topics = [...new Set(projections.flatMap((projection) => projection.topics))]
      const ends = new Map(yield* Effect.forEach(topics, (topic) => Effect.map(log.endOffsets(topic), (end) => [topic, end] as const)))
      return projections.flatMap((projection) =>
        projection.topics.map((topic) => ({
          projection: projection.name,
          topic,
          events: (ends.get(topic) ?? []).reduce(
            (sum, end) =>
              sum +
              Math.max(
                0,
                end.offset - Option.getOrElse(HashMap.get(committed, cursorKey(projection.name, topic, end.partition)), () => 0)
              ),
            0
          )
        }))
      )
    })

    return {
      run,
      waitFor,
      awaitCaughtUp,
      lag,
      catchUp: (onProgress = () => Effect.void) => catchUp(projections, onProgress),
      rebuild: (names, onProgress = () => Effect.void) => rebuild(names, onProgress),
      replayFrom: (since, names, onProgress = () => Effect.void) => replayFrom(since, names, onProgress)
    } satisfies ProjectorService
  })

/**
 * The projector runtime over a fixed set of projections; needs the read-model database (migrated: build it after
 * `layerMigrations`), the event log and the services the projections need.
 */
export class ProjectorRuntime extends Context.Service<ProjectorRuntime, ProjectorService>()("@synth/sql/ProjectorRuntime") {
  static readonly layer = <R = never>(
    projections: ReadonlyArray<Projection<unknown, R>>
  ): Layer.Layer<ProjectorRuntime, never, SqlClient.SqlClient | EventLog | R> =>
    Layer.effect(
      ProjectorRuntime,
      Effect.flatMap(Effect.context<R>(), (services) =>
        make(projections.map((projection) => provideServices(projection, services))))
    )

  /** Runs the projections in the background for the life of the layer (the gateway's read side). */
  static readonly layerRunning: Layer.Layer<never, never, ProjectorRuntime> = Layer.effectDiscard(
    Effect.flatMap(ProjectorRuntime, (projector) => projector.run)
  )
}
