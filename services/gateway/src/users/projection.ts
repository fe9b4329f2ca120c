import { SqlClient } from "effect/sql"
import { consumedBy, type DomainEvent } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { absurd, Effect } from "effect"

const projected = consumedBy("usersProjection")

/**
 * Folds user events into the `users` and `refresh_tokens` read models. Every statement is idempotent
 * (ON CONFLICT DO NOTHING, COALESCE on first-write-wins columns), so a redelivered event changes nothing.
 * Two registrations of one email can only race in the distributed runtime; the first in the log wins.
 */
export const applyUserEvent = (event: DomainEvent, meta: StoredEvent) =>
  Effect.gen(function* () {
    if (!projected(event)) return
    const sql = yield* SqlClient.SqlClient
    const at = meta.envelope.occurredAt
    switch (event.type) {
      case "user.registered":
        yield* sql`
          INSERT INTO users (id, email, password_hash, created_at)
          VALUES (${event.payload.userId}, ${event.payload.email}, ${event.payload.passwordHash}, ${at})
          ON CONFLICT DO NOTHING`
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
