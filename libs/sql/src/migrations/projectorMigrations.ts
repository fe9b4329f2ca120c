import { SqlClient } from "effect/sql"
import { Effect } from "effect"
import type { MigrationSet } from "./migrations.ts"

/**
 * The projector runtime's own tables (a plain object: calling `migrationSet` here would be an import cycle).
 * `next_offset` is the first offset not yet applied, per projection and log partition.
 */
export const projectorMigrations: MigrationSet = {
  owner: "projector",
  migrations: {
    "0001_projection_cursors": Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql`CREATE TABLE projection_cursors (
          projection text NOT NULL,
          topic text NOT NULL,
          partition integer NOT NULL,
          next_offset bigint NOT NULL,
          updated_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (projection, topic, partition)
        )`
    )
  }
}
