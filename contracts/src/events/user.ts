import { Schema } from "effect"
import { UserId } from "../ids.ts"
import { defineEvent } from "./define.ts"

/**
 * The user aggregate. Registration carries the email and the password *hash* because the log is the only source of
 * truth: replaying it must be able to rebuild accounts. No event ever carries a password or a token itself, only
 * token ids (jti), so the log can be shown to auditors.
 */
const TokenId = Schema.String.pipe(Schema.check(Schema.isMinLength(16)), Schema.annotate({ description: "refresh token id (jti)" }))

export const UserRegistered = defineEvent({
  type: "user.registered",
  version: 1,
  topic: "synth.user",
  description: "An account was created.",
  payload: Schema.Struct({
    userId: UserId,
    email: Schema.String,
    passwordHash: Schema.String
  })
})

export const UserLoggedIn = defineEvent({
  type: "user.logged-in",
  version: 1,
  topic: "synth.user",
  description: "Credentials were accepted; a new refresh-token family was opened.",
  payload: Schema.Struct({ userId: UserId, refreshTokenId: TokenId, familyId: TokenId })
})

export const UserLoginFailed = defineEvent({
  type: "user.login-failed",
  version: 1,
  topic: "synth.user",
  description:
    "Credentials were refused. For an unknown email the aggregate id is derived from the email, never the email itself.",
  payload: Schema.Struct({ reason: Schema.Literals(["unknown_email", "wrong_password"]) })
})

export const UserTokenRefreshed = defineEvent({
  type: "user.token-refreshed",
  version: 1,
  topic: "synth.user",
  description: "A refresh token was used once and replaced by a new one of the same family.",
  payload: Schema.Struct({ userId: UserId, previousRefreshTokenId: TokenId, refreshTokenId: TokenId, familyId: TokenId })
})

export const UserRefreshTokenReused = defineEvent({
  type: "user.refresh-token-reused",
  version: 1,
  topic: "synth.user",
  description: "An already used refresh token was presented again; its whole family is revoked.",
  payload: Schema.Struct({ userId: UserId, refreshTokenId: TokenId, familyId: TokenId })
})

export const userEvents = [UserRegistered, UserLoggedIn, UserLoginFailed, UserTokenRefreshed, UserRefreshTokenReused] as const

export const UserEvent = Schema.Union(userEvents.map((definition) => definition.schema))
export type UserEvent = typeof UserEvent.Type
