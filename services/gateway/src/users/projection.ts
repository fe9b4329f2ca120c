import { SqlClient, type SqlError } from "effect/sql"
import { type ConsumedEvent, consumedBy } from "@synth/contracts"
import { jsonRows, type Projected, writeInWaves, type Writers } from "@synth/sql"
import { Array, Effect, Option } from "effect"
import { emailLookup } from "./sealing.ts"
import { UserKeys } from "./UserKeys.ts"

const projected = consumedBy("usersProjection")

type UserEvent = ConsumedEvent<"usersProjection">

const isProjected = (candidate: Projected): candidate is Projected<UserEvent> => projected(candidate.event)

/** The rows an event reads or writes: the account, and the token family and tokens it names. */
const keysOf = (event: UserEvent): ReadonlyArray<string> => {
  const user = `user:${event.payload.userId.toLowerCase()}`
  switch (event.type) {
    case "user.registered":
    case "user.forgotten":
      return [user]
    case "user.logged-in":
      return [user, `family:${event.payload.familyId}`, `token:${event.payload.refreshTokenId}`]
    case "user.token-refreshed":
      return [
        user,
        `family:${event.payload.familyId}`,
        `token:${event.payload.previousRefreshTokenId}`,
        `token:${event.payload.refreshTokenId}`
      ]
    case "user.refresh-token-reused":
      return [user, `family:${event.payload.familyId}`]
  }
}

const insertTokens = (tokens: ReadonlyArray<Projected<Extract<UserEvent, { readonly type: "user.logged-in" | "user.token-refreshed" }>>>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const issued = jsonRows(tokens, ({ event: { payload }, meta }) => ({
      id: payload.refreshTokenId,
      user_id: payload.userId,
      family_id: payload.familyId,
      issued_at: meta.envelope.occurredAt
    }))
    return sql`
      INSERT INTO refresh_tokens (id, user_id, family_id, issued_at)
      SELECT id, user_id, family_id, issued_at
      FROM jsonb_to_recordset(${issued}::jsonb) AS token(id text, user_id uuid, family_id text, issued_at text)
      ON CONFLICT DO NOTHING`
  })

const writers: Writers<UserEvent, SqlError.SqlError, SqlClient.SqlClient | UserKeys> = {
  "user.registered": (events) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const keys = yield* UserKeys
      const revealed = yield* Effect.forEach(events, (registration) => {
        const { email, userId } = registration.event.payload
        return Effect.flatMap(keys.reveal("email", email), Option.match({
          onNone: () =>
            Effect.as(
              Effect.logInfo(`User ${userId} was forgotten: their registration projects to no account`),
              Option.none()
            ),
          onSome: (clearEmail) => Effect.succeed(Option.some({ registration, lookup: emailLookup(clearEmail) }))
        }))
      })
      const accounts = Array.getSomes(revealed)
      if (accounts.length === 0) return
      const rows = jsonRows(accounts, ({ lookup, registration: { event: { payload }, meta } }) => ({
        seq: meta.offset,
        id: payload.userId,
        email_lookup: lookup,
        email: payload.email,
        password_hash: payload.passwordHash,
        created_at: meta.envelope.occurredAt
      }))
      // In log order: of two registrations of one email, the first in the log wins.
      yield* sql`
        INSERT INTO users (id, email_lookup, email, password_hash, created_at)
        SELECT id, email_lookup, email, password_hash, created_at
        FROM jsonb_to_recordset(${rows}::jsonb)
          AS account(seq bigint, id uuid, email_lookup text, email jsonb, password_hash jsonb, created_at text)
        ORDER BY seq
        ON CONFLICT DO NOTHING`
    }),
  "user.forgotten": (events) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const keys = yield* UserKeys
      const ids = events.map(({ event }) => event.payload.userId)
      yield* sql`DELETE FROM refresh_tokens WHERE user_id = ANY(${ids}::uuid[])`
      yield* sql`DELETE FROM users WHERE id = ANY(${ids}::uuid[])`
      yield* Effect.forEach(ids, keys.destroy, { discard: true })
    }),
  "user.logged-in": insertTokens,
  "user.token-refreshed": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const used = jsonRows(events, ({ event: { payload }, meta }) => ({
        id: payload.previousRefreshTokenId,
        used_at: meta.envelope.occurredAt
      }))
      return Effect.andThen(
        sql`
          UPDATE refresh_tokens SET used_at = COALESCE(refresh_tokens.used_at, token.used_at)
          FROM jsonb_to_recordset(${used}::jsonb) AS token(id text, used_at text)
          WHERE refresh_tokens.id = token.id`,
        insertTokens(events)
      )
    }),
  "user.refresh-token-reused": (events) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => {
      const reused = jsonRows(events, ({ event: { payload }, meta }) => ({
        family_id: payload.familyId,
        revoked_at: meta.envelope.occurredAt
      }))
      return sql`
        UPDATE refresh_tokens SET revoked_at = COALESCE(refresh_tokens.revoked_at, family.revoked_at)
        FROM jsonb_to_recordset(${reused}::jsonb) AS family(family_id text, revoked_at text)
        WHERE refresh_tokens.family_id = family.family_id`
    })
}

/**
 * Folds user events into the `users` and `refresh_tokens` read models, a batch with one statement or two per event
 * type and wave (the events of one account go in successive waves). Every statement is idempotent (ON CONFLICT DO
 * NOTHING, COALESCE on first-write-wins columns), so a redelivered event changes nothing. Two registrations of one
 * email can only race in the distributed runtime; the first in the log wins.
 *
 * The email is opened only to index the account by `emailLookup`; the row keeps it sealed, as the event does. A
 * registration whose key is gone (the user was forgotten: a replay meets their registration first) projects to
 * no account, and `user.forgotten` removes the account, its tokens and its key (crypto-shredding happens here, so
 * it is retried with the projection until it is done, and a replay does it again, harmlessly).
 */
export const applyUserEvents = (events: ReadonlyArray<Projected>) =>
  writeInWaves(events.filter(isProjected), keysOf, writers)
