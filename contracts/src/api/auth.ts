import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  EmailTaken,
  Forbidden,
  InvalidCredentials,
  InvalidToken,
  NotCompleted,
  ServiceUnavailable,
  ValidationFailed
} from "../errors.ts"
import { Timestamp, UserId } from "../ids.ts"
import { AddressRateLimit, Authentication, Role } from "../security.ts"

export const passwordRules = { minLength: 10, maxLength: 256 } as const

// The checks apply to the trimmed value; the document describes what is sent (the encoded side), under the same name.
export const Email = Schema.Trim.pipe(
  Schema.check(Schema.isMaxLength(254, { message: "an email address has at most 254 characters" })),
  Schema.check(Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: "must be an email address such as ada@example.com" })),
  Schema.annotate({ identifier: "Email" }),
  Schema.annotateEncoded({
    identifier: "Email",
    description: "an email address such as ada@example.com, at most 254 characters once surrounding whitespace is trimmed"
  })
)

export const Password = Schema.String.pipe(
  Schema.check(Schema.isMinLength(passwordRules.minLength, {
    message: `must have at least ${passwordRules.minLength} characters`
  })),
  Schema.check(Schema.isMaxLength(passwordRules.maxLength, {
    message: `must have at most ${passwordRules.maxLength} characters`
  })),
  Schema.annotate({
    identifier: "Password",
    description: `${passwordRules.minLength} to ${passwordRules.maxLength} characters; must not be the email address`
  })
)

export const Credentials = Schema.Struct({ email: Email, password: Password }).annotate({
  identifier: "Credentials"
})

export const RegisteredUser = Schema.Struct({
  id: UserId,
  email: Schema.String,
  created_at: Timestamp
}).annotate({ identifier: "RegisteredUser" })

export const UserProfile = Schema.Struct({
  id: UserId,
  email: Schema.String,
  created_at: Timestamp,
  roles: Schema.Array(Role)
}).annotate({ identifier: "User" })

export const TokenPair = Schema.Struct({
  access_token: Schema.String,
  refresh_token: Schema.String,
  token_type: Schema.Literal("bearer"),
  expires_in: Schema.Int.annotate({ description: "access-token lifetime in seconds" })
}).annotate({ identifier: "TokenPair" })

/** POST /auth/refresh takes the refresh token where the spec puts it: `Authorization: Bearer <refresh token>`. */
export const RefreshHeaders = Schema.Struct({
  authorization: Schema.optional(Schema.String)
})

export class AuthGroup extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("register", "/auth/register", {
      payload: Credentials,
      success: RegisteredUser.pipe(HttpApiSchema.status(201)),
      error: [EmailTaken, ValidationFailed, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Create an account")
  )
  .add(
    HttpApiEndpoint.post("login", "/auth/login", {
      payload: Credentials,
      success: TokenPair,
      error: [InvalidCredentials, ValidationFailed, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Exchange email and password for an access and a refresh token")
  )
  .add(
    HttpApiEndpoint.post("refresh", "/auth/refresh", {
      headers: RefreshHeaders,
      success: TokenPair,
      error: [InvalidToken, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Rotate a refresh token (sent as the bearer token) into a new pair")
      .annotate(
        OpenApi.Description,
        "Each refresh token works once. Presenting a used one revokes every token descended from the same login."
      )
  )
  .middleware(AddressRateLimit) {}

/** DELETE /auth/me confirms with the account's password, so a stolen access token alone cannot erase an account. */
export const ForgetConfirmation = Schema.Struct({
  password: Schema.String.annotate({ description: "the account's current password" })
}).annotate({ identifier: "ForgetConfirmation" })

const forgetDescription = `Deletes the account and everything it owns, irreversibly (the right to be forgotten):
every dataset (uploaded and generated) with its files, profile and scans, every generator with its stored model,
every evaluation with its results. Running generations are cancelled first; if one does not stop in time, or an
evaluation or sample is still running, the answer is 409 and nothing is deleted yet: retry in a moment.

The event log is append-only and keeps the account's events, but the personal data in them (the email, the
password hash) was sealed under a key of this account alone, and that key is destroyed: what the log keeps of the
account reads as nothing. Afterwards every token of the account is refused (401), and the email can register again
as a new account. Send the account's password as \`{"password": "..."}\`; a wrong one answers 403 and deletes nothing.`

/** The signed-in user; separate from `auth` because it is rate-limited per user rather than per address. */
export class AccountGroup extends HttpApiGroup.make("account")
  .add(
    HttpApiEndpoint.get("me", "/auth/me", { success: UserProfile, error: ServiceUnavailable })
      .annotate(OpenApi.Summary, "The current user")
  )
  .add(
    HttpApiEndpoint.delete("forget", "/auth/me", {
      payload: ForgetConfirmation,
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotCompleted, ValidationFailed, ServiceUnavailable]
    })
      .annotate(OpenApi.Summary, "Delete the current user and everything they own (right to be forgotten)")
      .annotate(OpenApi.Description, forgetDescription)
  )
  .middleware(Authentication) {}
