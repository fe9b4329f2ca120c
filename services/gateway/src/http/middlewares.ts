import { AddressRateLimit, Authentication, CurrentUser, InvalidToken } from "@synth/contracts"
import { Tokens } from "@synth/auth"
import { HttpServerRequest } from "effect/http"
import { Effect, Layer, Option } from "effect"
import { GatewayConfig } from "../config.ts"
import { AuthService } from "../users/AuthService.ts"
import { bearerTokenOf } from "./bearer.ts"
import { RateLimiter } from "./RateLimiter.ts"
import { clientAddress } from "./requestContext.ts"

/** Verifies the bearer access token, loads its user and applies the per-user rate limit. */
export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.gen(function* () {
    const tokens = yield* Tokens
    const auth = yield* AuthService
    const limiter = yield* RateLimiter
    const { userRequestsPerMinute } = yield* GatewayConfig
    const invalid = (detail: string) => new InvalidToken({ detail })
    return Authentication.of({
      // The token is read from the header here (not the decoded credential) to tell a missing token from a bad one.
      bearer: (httpEffect) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const raw = bearerTokenOf(request.headers["authorization"])
          if (raw === undefined) return yield* invalid("Send an access token as `Authorization: Bearer <access token>`.")
          const claims = yield* tokens
            .verifyAccess(raw)
            .pipe(Effect.mapError(() => invalid("The access token is invalid or expired. Log in or refresh it.")))
          const profile = yield* auth.findProfile(claims.subject)
          if (Option.isNone(profile)) return yield* invalid("The account of this token no longer exists.")
          yield* limiter.enforce(`user:${claims.subject}`, userRequestsPerMinute)
          const { id, email, created_at, roles } = profile.value
          return yield* Effect.provideService(httpEffect, CurrentUser, { id, email, createdAt: created_at, roles })
        })
    })
  })
)

/** The per-address limit of the endpoints that run before a user is known. */
export const AddressRateLimitLive = Layer.effect(
  AddressRateLimit,
  Effect.gen(function* () {
    const limiter = yield* RateLimiter
    const { authRequestsPerMinute } = yield* GatewayConfig
    return AddressRateLimit.of((httpEffect) =>
      Effect.andThen(
        Effect.flatMap(clientAddress, (address) => limiter.enforce(`address:${address}`, authRequestsPerMinute)),
        httpEffect
      ))
  })
)
