import { PersonalData, UserId } from "@synth/contracts"
import { Option, Schema } from "effect"
import { initialState, type UserState } from "./decider.ts"

/** A `users` row: the account as `user.registered` carried it (sealed values; plain ones for v1 events). */
export const UserRow = Schema.Struct({
  id: UserId,
  email: PersonalData,
  passwordHash: PersonalData,
  /** `emailLookup` of the normalised email: how the account is found by email. */
  emailLookup: Schema.String,
  createdAt: Schema.String
})
export type UserRow = typeof UserRow.Type

/** A `refresh_tokens` row: a token the user was issued, whether it was used, and whether its family was revoked. */
export const TokenRow = Schema.Struct({
  id: Schema.String,
  familyId: Schema.String,
  usedAt: Schema.NullOr(Schema.String),
  revokedAt: Schema.NullOr(Schema.String)
})
export type TokenRow = typeof TokenRow.Type

/**
 * The decider's state from the read models, the one way production builds it (a Kafka log cannot be read by
 * aggregate, so the user's events cannot be folded on each request). The rows are what the projection folded from
 * the events, so this equals `evolve` over them wherever a decision looks (users/readModelState.unit.spec.ts checks
 * it event by event): only the tokens read are in it, and a forgotten account, whose rows are gone, reads as absent,
 * on which every command decides as on forgotten (a refresh is refused all the same, for another reason).
 */
export const stateOfReadModel = (user: Option.Option<UserRow>, tokens: ReadonlyArray<TokenRow>): UserState =>
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
