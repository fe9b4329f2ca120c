import { SqlClient } from "effect/sql"
import { PersonalData, type UserId } from "@synth/contracts"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { initialState, type UserState } from "./decider.ts"
import { emailLookup } from "./sealing.ts"

export interface UserRow {
  readonly id: UserId
  /** As `user.registered` carries them: sealed under the user's key (plain for accounts of v1 events). */
  readonly email: PersonalData
  readonly passwordHash: PersonalData
  /** `emailLookup` of the normalised email: how the account is found by email. */
  readonly emailLookup: string
  readonly createdAt: string
}

interface TokenRow {
  readonly familyId: string
  readonly usedAt: string | null
  readonly revokedAt: string | null
}

const StoredUser = Schema.Struct({
  id: Schema.String,
  email: PersonalData,
  passwordHash: PersonalData,
  emailLookup: Schema.String,
  createdAt: Schema.String
})

/**
 * Queries on the user read models. The decider's state is rebuilt from them rather than from the log, because a
 * Kafka log cannot be read by aggregate; the rows are exactly what the projection folded from the events.
 */
export class UserRepository extends Context.Service<UserRepository>()("@synth/gateway/UserRepository", {
  make: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    // jsonb columns come back parsed, from PostgreSQL and PGlite alike.
    const decodeRows = (rows: ReadonlyArray<unknown>) =>
      rows[0] === undefined
        ? Effect.succeedNone
        : Effect.map(Schema.decodeUnknownEffect(StoredUser)(rows[0]), (row) => Option.some(row as UserRow))

    /** The account of a normalised email, found by its lookup digest. */
    const findByEmail = Effect.fn("UserRepository.findByEmail")(function* (email: string) {
      return yield* decodeRows(yield* sql`
        SELECT id, email, password_hash AS "passwordHash", email_lookup AS "emailLookup", created_at AS "createdAt"
        FROM users WHERE email_lookup = ${emailLookup(email)}`)
    }, Effect.orDie)

    const findById = Effect.fn("UserRepository.findById")(function* (id: string) {
      return yield* decodeRows(yield* sql`
        SELECT id, email, password_hash AS "passwordHash", email_lookup AS "emailLookup", created_at AS "createdAt"
        FROM users WHERE id = ${id}`)
    }, Effect.orDie)

    /** The state a registration or login decides on. */
    const stateForEmail = (email: string) => Effect.map(findByEmail(email), (user) => stateOf(user, []))

    /** The state a deletion of the account decides on. */
    const stateForId = (userId: string) => Effect.map(findById(userId), (user) => stateOf(user, []))

    /** The state a refresh decides on: the user and the one presented token, if this user issued it. */
    const stateForRefresh = Effect.fn("UserRepository.stateForRefresh")(function* (userId: string, tokenId: string) {
      const user = yield* findById(userId)
      const tokens = yield* sql<TokenRow & { readonly id: string }>`
        SELECT id, family_id AS "familyId", used_at AS "usedAt", revoked_at AS "revokedAt" FROM refresh_tokens WHERE id = ${tokenId} AND user_id = ${userId}`
      return stateOf(user, tokens)
    }, Effect.orDie)

    return { findByEmail, findById, stateForEmail, stateForId, stateForRefresh } as const
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
