import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Context, Schema } from "effect"
import { InvalidToken, RateLimited } from "./errors.ts"
import type { UserId } from "./ids.ts"

export const Role = Schema.Literal("user", "auditor")
export type Role = typeof Role.Type

/** The caller of an authenticated endpoint, as established by the access token. */
export class CurrentUser extends Context.Tag("@synth/contracts/CurrentUser")<
  CurrentUser,
  { readonly id: UserId; readonly email: string; readonly createdAt: string; readonly roles: ReadonlyArray<Role> }
>() {}

/** Bearer access token on every endpoint but the exempt ones; also applies the per-user rate limit. */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("@synth/contracts/Authentication", {
  failure: Schema.Union(InvalidToken, RateLimited),
  provides: CurrentUser,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** The per-client-address rate limit of the endpoints that run before a user is known (register, login, refresh). */
export class AddressRateLimit extends HttpApiMiddleware.Tag<AddressRateLimit>()("@synth/contracts/AddressRateLimit", {
  failure: RateLimited
}) {}
