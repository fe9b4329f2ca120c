import { SqlClient } from "effect/sql"
import { Context, Effect, Layer } from "effect"
import { rowsOf } from "../readModelRows.ts"
import { stateOfReadModel, TokenRow, UserRow } from "./readModelState.ts"
import { emailLookup } from "./sealing.ts"

export type { UserRow } from "./readModelState.ts"

// jsonb columns come back parsed, from PostgreSQL and PGlite alike.
const userRows = rowsOf("users", UserRow)
const tokenRows = rowsOf("refresh_tokens", TokenRow)

/**
 * Queries on the user read models. The decider's state is built from them (stateOfReadModel) rather than from the
 * log, because a Kafka log cannot be read by aggregate; the rows are exactly what the projection folded from the
 * events.
 */
export class UserRepository extends Context.Service<UserRepository>()("@synth/gateway/UserRepository", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** The account of a normalised email, found by its lookup digest. */
    const findByEmail = Effect.fn("UserRepository.findByEmail")(function* (email: string) {
      return yield* userRows.first(yield* sql`
        SELECT id, email, password_hash AS "passwordHash", email_lookup AS "emailLookup", created_at AS "createdAt"
        FROM users WHERE email_lookup = ${emailLookup(email)}`)
    }, Effect.orDie)

    const findById = Effect.fn("UserRepository.findById")(function* (id: string) {
      return yield* userRows.first(yield* sql`
        SELECT id, email, password_hash AS "passwordHash", email_lookup AS "emailLookup", created_at AS "createdAt"
        FROM users WHERE id = ${id}`)
    }, Effect.orDie)

    /** The state a registration or login decides on. */
    const stateForEmail = (email: string) => Effect.map(findByEmail(email), (user) => stateOfReadModel(user, []))

    /** The state a deletion of the account decides on. */
    const stateForId = (userId: string) => Effect.map(findById(userId), (user) => stateOfReadModel(user, []))

    /** The state a refresh decides on: the user and the one presented token, if this user issued it. */
    const stateForRefresh = Effect.fn("UserRepository.stateForRefresh")(function* (userId: string, tokenId: string) {
      const user = yield* findById(userId)
      const tokens = yield* tokenRows.all(yield* sql`
        SELECT id, family_id AS "familyId", used_at AS "usedAt", revoked_at AS "revokedAt"
        FROM refresh_tokens WHERE id = ${tokenId} AND user_id = ${userId}`)
      return stateOfReadModel(user, tokens)
    }, Effect.orDie)

    return { findByEmail, findById, stateForEmail, stateForId, stateForRefresh } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
