import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { EmailTaken, InvalidCredentials, InvalidToken, ValidationFailed } from "../errors.ts"
import { Timestamp, UserId } from "../ids.ts"
import { AddressRateLimit, Authentication, Role } from "../security.ts"

export const passwordRules = { minLength: 10, maxLength: 256 } as const

export const Email = Schema.Trim.pipe(
  Schema.maxLength(254, { message: () => "an email address has at most 254 characters" }),
  Schema.pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: () => "must be an email address such as ada@example.com" }),
  Schema.annotations({ identifier: "Email" })
)

export const Password = Schema.String.pipe(
  Schema.minLength(passwordRules.minLength, {
    message: () => `must have at least ${passwordRules.minLength} characters`
  }),
  Schema.maxLength(passwordRules.maxLength, {
    message: () => `must have at most ${passwordRules.maxLength} characters`
  }),
  Schema.annotations({
    identifier: "Password",
    description: `${passwordRules.minLength} to ${passwordRules.maxLength} characters; must not be the email address`
  })
)

export const Credentials = Schema.Struct({ email: Email, password: Password }).annotations({
  identifier: "Credentials"
})

export const RegisteredUser = Schema.Struct({
  id: UserId,
  email: Schema.String,
  created_at: Timestamp
}).annotations({ identifier: "RegisteredUser" })

export const UserProfile = Schema.Struct({
  id: UserId,
  email: Schema.String,
  created_at: Timestamp,
  roles: Schema.Array(Role)
}).annotations({ identifier: "User" })

export const TokenPair = Schema.Struct({
  access_token: Schema.String,
  refresh_token: Schema.String,
  token_type: Schema.Literal("bearer"),
  expires_in: Schema.Int.annotations({ description: "access-token lifetime in seconds" })
}).annotations({ identifier: "TokenPair" })

/** POST /auth/refresh takes the refresh token where the spec puts it: `Authorization: Bearer <refresh token>`. */
export const RefreshHeaders = Schema.Struct({
  authorization: Schema.optional(Schema.String)
})

export class AuthGroup extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("register", "/auth/register")
      .setPayload(Credentials)
      .addSuccess(RegisteredUser, { status: 201 })
      .addError(EmailTaken)
      .addError(ValidationFailed)
      .annotate(OpenApi.Summary, "Create an account")
  )
  .add(
    HttpApiEndpoint.post("login", "/auth/login")
      .setPayload(Credentials)
      .addSuccess(TokenPair)
      .addError(InvalidCredentials)
      .addError(ValidationFailed)
      .annotate(OpenApi.Summary, "Exchange email and password for an access and a refresh token")
  )
  .add(
    HttpApiEndpoint.post("refresh", "/auth/refresh")
      .setHeaders(RefreshHeaders)
      .addSuccess(TokenPair)
      .addError(InvalidToken)
      .annotate(OpenApi.Summary, "Rotate a refresh token (sent as the bearer token) into a new pair")
      .annotate(
        OpenApi.Description,
        "Each refresh token works once. Presenting a used one revokes every token descended from the same login."
      )
  )
  .middleware(AddressRateLimit) {}

/** The signed-in user; separate from `auth` because it is rate-limited per user rather than per address. */
export class AccountGroup extends HttpApiGroup.make("account")
  .add(HttpApiEndpoint.get("me", "/auth/me").addSuccess(UserProfile).annotate(OpenApi.Summary, "The current user"))
  .middleware(Authentication) {}
