import { Schema } from "effect"
import { UserId } from "../ids.ts"
import { defineEvent, defineUpcaster } from "./define.ts"
import { PersonalData } from "./personalData.ts"

/**
 * The user aggregate. Registration carries the email and the password *hash* because the log is the only source of
 * truth: replaying it must be able to rebuild accounts. Since version 2 both are sealed under the user's own key
 * (`SealedValue`), so forgetting the user (destroying the key) leaves nothing readable in the log. No event ever
 * carries a password or a token itself, only token ids (jti), so the log can be shown to auditors.
 */
const TokenId = Schema.String.pipe(Schema.check(Schema.isMinLength(16)), Schema.annotate({ description: "refresh token id (jti)" }))

export const UserRegisteredV1 = defineEvent({
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

/**
 * v2 seals the personal fields: v1 wrote the email and the password hash in clear into a log that is kept forever,
 * so a user could not be forgotten. Written sealed (`SealedValue`); `PlainValue` only comes from reading a v1 event.
 */
export const UserRegistered = defineEvent({
  type: "user.registered",
  version: 2,
  topic: "synth.user",
  description:
    "An account was created. The email (normalised to lower case) and the password hash are sealed under the " +
    "user's own key, which forgetting the user destroys.",
  payload: Schema.Struct({
    userId: UserId,
    email: PersonalData.annotate({
      description: "the email, lower case, sealed under the user's key (`{ plain }` only when read from v1)"
    }),
    passwordHash: PersonalData.annotate({ description: "the password's scrypt hash, sealed likewise" })
  })
})

export const userRegisteredV1ToV2 = defineUpcaster({
  from: UserRegisteredV1,
  to: UserRegistered,
  description:
    "`email` and `passwordHash` become `{ plain }` values: v1 wrote them in clear, and the log cannot be rewritten " +
    "without breaking its hash chains, so they stay readable in the log even after the user is forgotten (the read " +
    "models and the API drop them; see docs/audit.md).",
  upcast: (v1) => ({ userId: v1.userId, email: { plain: v1.email }, passwordHash: { plain: v1.passwordHash } })
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

export const UserForgotten = defineEvent({
  type: "user.forgotten",
  version: 1,
  topic: "synth.user",
  description:
    "The user deleted their account (DELETE /auth/me, password confirmed) after everything they owned was deleted " +
    "(the `dataset.deleted`, `generator.deleted` and `evaluation.deleted` events of the same correlation id). Their " +
    "key is destroyed, so the sealed personal data of their events reads as nothing; their tokens stop working and " +
    "their email can register again, as a new user.",
  payload: Schema.Struct({ userId: UserId })
})

export const userEvents = [
  UserRegistered,
  UserLoggedIn,
  UserLoginFailed,
  UserTokenRefreshed,
  UserRefreshTokenReused,
  UserForgotten
] as const

/** Older versions of this aggregate's events, each with the upcaster that reads it as the next version. */
export const userUpcasters = [userRegisteredV1ToV2] as const

export const UserEvent = Schema.Union(userEvents.map((definition) => definition.schema))
export type UserEvent = typeof UserEvent.Type
