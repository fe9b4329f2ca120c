import { SqlClient } from "effect/sql"
import { consumedBy, type DomainEvent } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { absurd, Effect, Option } from "effect"
import { emailLookup } from "./sealing.ts"
import { UserKeys } from "./UserKeys.ts"

const projected = consumedBy("usersProjection")

/**
 * Folds user events into the `users` and `refresh_tokens` read models. Every statement is idempotent
 * (ON CONFLICT DO NOTHING, COALESCE on first-write-wins columns), so a redelivered event changes nothing.
 * Two registrations of one email can only race in the distributed runtime; the first in the log wins.
 *
 * The email is opened only to index the account by `emailLookup`; the row keeps it sealed, as the event does. A
 * registration whose key is gone (the user was forgotten: a replay meets their registration first) projects to
 * no account, and `user.forgotten` removes the account, its tokens and its key (crypto-shredding happens here, so
 * it is retried with the projection until it is done, and a replay does it again, harmlessly).
 */
export const applyUserEvent = (event: DomainEvent, meta: StoredEvent) =>
  Effect.gen(function* () {
    if (!projected(event)) return
    const sql = yield* SqlClient.SqlClient
    const keys = yield* UserKeys
    const at = meta.envelope.occurredAt
    switch (event.type) {
      case "user.registered": {
        const { email, passwordHash, userId } = event.payload
        const clearEmail = yield* keys.reveal("email", email)
        if (Option.isNone(clearEmail)) {
          yield* Effect.logInfo(`User ${userId} was forgotten: their registration projects to no account`)
          return
        }
        yield* sql`
          INSERT INTO users (id, email_lookup, email, password_hash, created_at)
          VALUES (${userId}, ${emailLookup(clearEmail.value)}, ${JSON.stringify(email)}::jsonb,
            ${JSON.stringify(passwordHash)}::jsonb, ${at})
          ON CONFLICT DO NOTHING`
        return
      }
      case "user.forgotten":
        yield* sql`DELETE FROM refresh_tokens WHERE user_id = ${event.payload.userId}`
        yield* sql`DELETE FROM users WHERE id = ${event.payload.userId}`
        yield* keys.destroy(event.payload.userId)
        return
      case "user.logged-in":
        yield* sql`
          INSERT INTO refresh_tokens (id, user_id, family_id, issued_at)
          VALUES (${event.payload.refreshTokenId}, ${event.payload.userId}, ${event.payload.familyId}, ${at})
          ON CONFLICT DO NOTHING`
        return
      case "user.token-refreshed":
        yield* sql`
          UPDATE refresh_tokens SET used_at = COALESCE(used_at, ${at}) WHERE id = ${event.payload.previousRefreshTokenId}`
        yield* sql`
          INSERT INTO refresh_tokens (id, user_id, family_id, issued_at)
          VALUES (${event.payload.refreshTokenId}, ${event.payload.userId}, ${event.payload.familyId}, ${at})
          ON CONFLICT DO NOTHING`
        return
      case "user.refresh-token-reused":
        yield* sql`
          UPDATE refresh_tokens SET revoked_at = COALESCE(revoked_at, ${at}) WHERE family_id = ${event.payload.familyId}`
        return
      default:
        return absurd<void>(event)
    }
  })
