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
  }),
  /**
   * The email leaves the read model in clear (docs/audit.md, "Forgetting a user"): `email` and `password_hash`
   * hold the values as `user.registered` carries them (sealed; `{ "plain": ... }` from a v1 event, as here for the
   * rows of v1 events), and accounts are found by `email_lookup`, a SHA-256 of the normalised email computed as
   * `emailLookup` in sealing.ts does (the rows of v1 events hold normalised emails, as their events do).
   */
  "0009_users_sealed_email": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`ALTER TABLE users ADD COLUMN email_lookup text`
    yield* sql`UPDATE users SET email_lookup = encode(sha256(convert_to('synth/user-email/' || email, 'UTF8')), 'hex')`
    yield* sql`ALTER TABLE users ALTER COLUMN email_lookup SET NOT NULL`
    yield* sql`ALTER TABLE users ADD CONSTRAINT users_email_lookup_key UNIQUE (email_lookup)`
    yield* sql`ALTER TABLE users DROP CONSTRAINT users_email_key`
    yield* sql`ALTER TABLE users ALTER COLUMN email TYPE jsonb USING jsonb_build_object('plain', email)`
    yield* sql`ALTER TABLE users ALTER COLUMN password_hash TYPE jsonb USING jsonb_build_object('plain', password_hash)`
    yield* sql`CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id)`
  })
}
