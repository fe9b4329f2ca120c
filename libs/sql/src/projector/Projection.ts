import { type SqlClient } from "effect/sql"
import type { DomainEvent } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import type { Effect } from "effect"

/**
 * A read model fed from the log.
 *
 * - `name` is stable: the runtime keys its cursors by it, so renaming a projection makes it start from offset 0 on
 *   top of the rows it already wrote. Rename only together with a `rebuild` of it.
 * - `tables` are the tables it alone writes: a rebuild truncates them.
 * - `apply` must be idempotent (`ON CONFLICT`, expected revisions): it runs inside the transaction that advances
 *   the cursor, so an event is applied once per cursor, but a rebuild replays everything onto empty tables.
 *   It sees decoded events only; types the catalog does not know are skipped with a warning.
 */
export interface Projection<E = never> {
  readonly name: string
  readonly topics: ReadonlyArray<string>
  readonly tables: ReadonlyArray<string>
  readonly apply: (event: DomainEvent, meta: StoredEvent) => Effect.Effect<void, E, SqlClient.SqlClient>
}

/** Any projection, whatever its error type, for lists of them. */
export type AnyProjection = Projection<unknown>

/** Infers `E` from `apply`; names follow the table names' rules so logs and cursors stay readable. */
export const makeProjection = <E = never>(projection: Projection<E>): Projection<E> => {
  if (!/^[a-z][a-z0-9_.-]*$/.test(projection.name)) {
    throw new Error(`projection name "${projection.name}" must match /^[a-z][a-z0-9_.-]*$/`)
  }
  return projection
}
