import { SqlClient } from "effect/sql"
import type { UserId } from "@synth/contracts"
import { Context, Effect, Layer, Option } from "effect"
import { initialState, type UserState } from "./decider.ts"

export interface UserRow {
  readonly id: UserId
  readonly email: string
  readonly passwordHash: string
  readonly createdAt: string
}

interface TokenRow {
  readonly familyId: string
  readonly usedAt: string | null
  readonly revokedAt: string | null
}

/**
 * Queries on the user read models. The decider's state is rebuilt from them rather than from the log, because a
 * Kafka log cannot be read by aggregate; the rows are exactly what the projection folded from the events.
 */
export class UserRepository extends Context.Service<UserRepository>()("@synth/gateway/UserRepository", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const one = <A>(rows: ReadonlyArray<A>) => Option.fromNullishOr(rows[0])

    const findByEmail = Effect.fn("UserRepository.findByEmail")(function* (email: string) {
      return one(yield* sql<UserRow>`
        SELECT id, email, password_hash AS "passwordHash", created_at AS "createdAt" FROM users WHERE email = ${email}`)
    }, Effect.orDie)

    const findById = Effect.fn("UserRepository.findById")(function* (id: string) {
      return one(yield* sql<UserRow>`
        SELECT id, email, password_hash AS "passwordHash", created_at AS "createdAt" FROM users WHERE id = ${id}`)
    }, Effect.orDie)

    /** The state a registration or login decides on. */
    const stateForEmail = (email: string) => Effect.map(findByEmail(email), (user) => stateOf(user, []))

    /** The state a refresh decides on: the user and the one presented token, if this user issued it. */
    const stateForRefresh = Effect.fn("UserRepository.stateForRefresh")(function* (userId: string, tokenId: string) {
      const user = yield* findById(userId)
      const tokens = yield* sql<TokenRow & { readonly id: string }>`
        SELECT id, family_id AS "familyId", used_at AS "usedAt", revoked_at AS "revokedAt" FROM refresh_tokens WHERE id = ${tokenId} AND user_id = ${userId}`
      return stateOf(user, tokens)
    }, Effect.orDie)

    return { findByEmail, findById, stateForEmail, stateForRefresh } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}

const stateOf = (user: Option.Option<UserRow>, tokens: ReadonlyArray<TokenRow & { readonly id: string }>): UserState =>
  Option.match(user, {
    onNone: () => initialState,
    onSome: (row) => ({
      status: "registered",
      userId: row.id,
      email: row.email,
      passwordHash: row.passwordHash,
      refreshTokens: new Map(tokens.map((token) => [token.id, { familyId: token.familyId, used: token.usedAt !== null }])),
      revokedFamilies: new Set(tokens.filter((token) => token.revokedAt !== null).map((token) => token.familyId))
    })
  })
