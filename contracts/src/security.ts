import { Context, Schema } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { InvalidToken, MalformedRequest, RateLimited, ValidationFailed } from "./errors.ts"
import type { UserId } from "./ids.ts"

export const Role = Schema.Literals(["user", "auditor"])
export type Role = typeof Role.Type

/** The caller of an authenticated endpoint, as established by the access token. */
export class CurrentUser extends Context.Service<
  CurrentUser,
  { readonly id: UserId; readonly email: string; readonly createdAt: string; readonly roles: ReadonlyArray<Role> }
>()("@synth/contracts/CurrentUser") {}

/** Bearer access token on every endpoint but the exempt ones; also applies the per-user rate limit. */
export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: CurrentUser }>()(
  "@synth/contracts/Authentication",
  { error: [InvalidToken, RateLimited], security: { bearer: HttpApiSecurity.bearer } }
) {}

/** The per-client-address rate limit of the endpoints that run before a user is known (register, login, refresh). */
export class AddressRateLimit extends HttpApiMiddleware.Service<AddressRateLimit>()("@synth/contracts/AddressRateLimit", {
  error: RateLimited
}) {}

/**
 * Every endpoint: a request its schemas refuse (params, query, headers, body) is answered as a problem, 400
 * malformed_request when the body is not a JSON object at all, else 422 validation_failed listing the fields.
 */
export class RequestValidation extends HttpApiMiddleware.Service<RequestValidation>()("@synth/contracts/RequestValidation", {
  error: [MalformedRequest, ValidationFailed]
}) {}
