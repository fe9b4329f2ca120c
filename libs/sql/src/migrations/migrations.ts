import { Migrator, type SqlClient, SqlError } from "effect/sql"
import { Effect, Layer, Schedule } from "effect"
import { projectorMigrations } from "./projectorMigrations.ts"

/** `NNNN_name` → the migration, e.g. `"0001_create_users"`. Numbers only grow; a released one is never edited. */
export type Migrations = Readonly<Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>>

/**
 * One owner's migrations (the projector runtime, the gateway, later each service that keeps tables).
 *
 * Each owner records what it applied in its own table, `migrations_<owner>`, and numbers from 0001 on its own:
 * @effect/sql's Migrator applies only ids above the highest one in its table, so owners sharing one table would
 * silently skip each other's lower-numbered migrations. An owner's migrations touch only the owner's tables.
 */
export interface MigrationSet {
  readonly owner: string
  readonly migrations: Migrations
}

const ownerPattern = /^[a-z][a-z0-9_]*$/
const keyPattern = /^\d{4}_[a-z0-9_]+$/

export const migrationSet = (owner: string, migrations: Migrations): MigrationSet => {
  if (!ownerPattern.test(owner)) throw new Error(`migration owner "${owner}" must match ${ownerPattern}`)
  const malformed = Object.keys(migrations).filter((key) => !keyPattern.test(key))
  // Migrator.fromRecord ignores keys it cannot parse: fail loudly instead of never running them.
  if (malformed.length > 0) throw new Error(`migrations of "${owner}" must be named NNNN_name: ${malformed.join(", ")}`)
  return { owner, migrations }
}

// Migrator.make without a schema dumper: PgMigrator's only addition is pg_dump, which needs a PostgreSQL install.
const runMigrator = Migrator.make({})

// Two processes creating the same migrations table at once: the loser gets a unique violation on pg_type (23505)
// or "already exists" (42P07, 42710). Its next attempt finds the table and waits on the Migrator's table lock.
const isConcurrentCreate = (error: unknown) =>
  error instanceof SqlError.SqlError &&
  ["23505", "42P07", "42710"].includes(String((error.cause as { readonly code?: unknown } | undefined)?.code))

/**
 * Applies every owner's pending migrations, the projector runtime's own first, then the sets in the order given.
 * Safe to run on every start and from several processes at once. The Migrator locks its table while it applies
 * migrations, but its own `CREATE TABLE IF NOT EXISTS` races between processes starting together on a new database
 * (seen: a duplicate key in pg_type), so that one failure is retried.
 * Returns the migrations applied now, per owner.
 */
export const runMigrations = Effect.fn("runMigrations")(function*(sets: ReadonlyArray<MigrationSet>) {
  const all = [projectorMigrations, ...sets]
  const owners = all.map((set) => set.owner)
  const duplicate = owners.find((owner, index) => owners.indexOf(owner) !== index)
  if (duplicate !== undefined) return yield* Effect.die(new Error(`migration owner "${duplicate}" is given twice`))
  const applied: Record<string, ReadonlyArray<string>> = {}
  for (const set of all) {
    const done = yield* runMigrator({ loader: Migrator.fromRecord(set.migrations), table: `migrations_${set.owner}` }).pipe(
      Effect.retry({ times: 3, schedule: Schedule.spaced("250 millis"), while: isConcurrentCreate })
    )
    applied[set.owner] = done.map(([id, name]) => `${String(id).padStart(4, "0")}_${name}`)
  }
  return applied
})

/** Runs the migrations when the layer is built: put it before anything that reads or projects. */
export const layerMigrations = (
  sets: ReadonlyArray<MigrationSet>
): Layer.Layer<never, Migrator.MigrationError | SqlError.SqlError, SqlClient.SqlClient> =>
  Layer.effectDiscard(runMigrations(sets))
