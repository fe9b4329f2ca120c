import { SqlClient } from "effect/sql"
import { Effect } from "effect"

/**
 * The user read models. Timestamps are kept as the ISO strings the events carry, so a replay reproduces responses
 * byte for byte.
 */
export const userMigrations = {
  "0001_users": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        email text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        created_at text NOT NULL
      )`
    yield* sql`
      CREATE TABLE refresh_tokens (
        id text PRIMARY KEY,
        user_id uuid NOT NULL,
        family_id text NOT NULL,
        issued_at text NOT NULL,
        used_at text,
        revoked_at text
      )`
    yield* sql`CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)`
  })
}
