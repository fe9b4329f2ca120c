import { type SqlClient } from "effect/sql"
import type { DomainEvent } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { Context, Effect } from "effect"

/** A decoded event with where and how the log stored it. */
export interface Projected<Event extends DomainEvent = DomainEvent> {
  readonly event: Event
  readonly meta: StoredEvent
}

/**
 * A read model fed from the log.
 *
 * - `name` is stable: the runtime keys its cursors by it, so renaming a projection makes it start from offset 0 on
 *   top of the rows it already wrote. Rename only together with a `rebuild` of it.
 * - `tables` are the tables it alone writes: a rebuild truncates them.
 * - `applyBatch` must be idempotent (`ON CONFLICT`, expected revisions): it runs inside the transaction that
 *   advances the cursor, so an event is applied once per cursor, but a rebuild replays everything onto empty tables.
 *   It sees decoded events only; types the catalog does not know are skipped with a warning.
 * - `R`: services `applyBatch` needs besides the database; `ProjectorRuntime.layer` takes them from its environment.
 */
export interface Projection<E = never, R = never> {
  readonly name: string
  readonly topics: ReadonlyArray<string>
  readonly tables: ReadonlyArray<string>
  /**
   * Projections that must have applied their topics up to the log's end (as it is when a batch here is about to be
   * applied) before this one applies the batch. An event here may name what an event on another topic made just
   * before it (a completed generator, its output dataset): this way a reader never sees the name before the thing.
   */
  readonly after?: ReadonlyArray<string>
  /**
   * The event types that need `after`: only a batch holding one of them waits (the events that name what another
   * projection makes; waiting before every batch would slow the whole projection under load to the other's pace).
   * Every batch waits when this is absent.
   */
  readonly afterFor?: ReadonlyArray<string>
  /**
   * Whether a request that appended events waits for this projection to show them (`waitFor`, read-your-writes;
   * the default). A feed read at its readers' own pace (the audit feed, which follows every topic) sets it false:
   * a slow feed then never holds up the request of a client who does not read it, and its readers wait for it to
   * catch up with the log instead (`awaitCaughtUp`).
   */
  readonly readYourWrites?: boolean
  /**
   * Applies one partition's events, in offset order, as one step of the transaction that moves the cursor past
   * them: the rows afterwards must be those applying the events one by one would leave (a batch is a chunk of the
   * log, its size the reader's; a replay's differ from a live follower's).
   */
  readonly applyBatch: (events: ReadonlyArray<Projected>) => Effect.Effect<void, E, SqlClient.SqlClient | R>
}

/** Any projection, whatever its error type, for lists of them. */
export type AnyProjection = Projection<unknown>

/**
 * The projection with the services it needs provided: `applyBatch` then needs only the database. The context of
 * the transaction it runs in comes first, so the transaction's connection is the one used.
 */
export const provideServices = <R>(projection: Projection<unknown, R>, services: Context.Context<R>): AnyProjection => ({
  ...projection,
  applyBatch: (events) =>
    Effect.updateContext(projection.applyBatch(events), (current: Context.Context<SqlClient.SqlClient>) =>
      Context.merge(services, current))
})

interface ProjectionSettings {
  readonly name: string
  readonly topics: ReadonlyArray<string>
  readonly tables: ReadonlyArray<string>
  readonly after?: ReadonlyArray<string>
  readonly afterFor?: ReadonlyArray<string>
  readonly readYourWrites?: boolean
}

const checkedName = <P extends ProjectionSettings>(projection: P): P => {
  if (!/^[a-z][a-z0-9_.-]*$/.test(projection.name)) {
    throw new Error(`projection name "${projection.name}" must match /^[a-z][a-z0-9_.-]*$/`)
  }
  return projection
}

/**
 * A projection that writes a batch with few statements (multi-row inserts and updates); infers `E` and `R` from
 * `applyBatch`. Names follow the table names' rules so logs and cursors stay readable.
 */
export const makeBatchProjection = <E = never, R = SqlClient.SqlClient>(projection: ProjectionSettings & {
  readonly applyBatch: (events: ReadonlyArray<Projected>) => Effect.Effect<void, E, R>
}): Projection<E, Exclude<R, SqlClient.SqlClient>> =>
  // R is SqlClient and the rest; TypeScript cannot see that it is assignable to SqlClient | Exclude<R, SqlClient>.
  checkedName(projection) as Projection<E, Exclude<R, SqlClient.SqlClient>>

/** A projection that applies a batch one event after another, each with its own statements. */
export const makeProjection = <E = never, R = SqlClient.SqlClient>(projection: ProjectionSettings & {
  readonly apply: (event: DomainEvent, meta: StoredEvent) => Effect.Effect<void, E, R>
}): Projection<E, Exclude<R, SqlClient.SqlClient>> => {
  const { apply, ...settings } = projection
  return makeBatchProjection({
    ...settings,
    applyBatch: (events) => Effect.forEach(events, ({ event, meta }) => apply(event, meta), { discard: true })
  })
}
