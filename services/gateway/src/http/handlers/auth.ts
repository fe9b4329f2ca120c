import { HttpApiBuilder } from "effect/http-api"
import { CurrentUser, InvalidToken, SynthApi } from "@synth/contracts"
import { Effect } from "effect"
import { AuthService } from "../../users/AuthService.ts"
import { ForgetService } from "../../users/ForgetService.ts"
import { bearerTokenOf } from "../bearer.ts"

export const AuthLive = HttpApiBuilder.group(SynthApi, "auth", (handlers) =>
  Effect.gen(function* () {
    const auth = yield* AuthService
    return handlers
      .handle("register", ({ payload }) => auth.register(payload))
      .handle("login", ({ payload }) => auth.login(payload))
      .handle("refresh", ({ headers }) => {
        const token = bearerTokenOf(headers.authorization)
        return token === undefined
          ? new InvalidToken({ detail: "Send the refresh token as `Authorization: Bearer <refresh token>`." })
          : auth.refresh(token)
      })
  })
)

/** The middleware already loaded the account of the token; /auth/me shows it, DELETE /auth/me forgets it. */
export const AccountLive = HttpApiBuilder.group(SynthApi, "account", (handlers) =>
  Effect.gen(function* () {
    const forgetting = yield* ForgetService
    return handlers
      .handle("me", () =>
        Effect.map(CurrentUser, (user) => ({ id: user.id, email: user.email, created_at: user.createdAt, roles: user.roles }))
      )
      .handle("forget", ({ payload }) => Effect.flatMap(CurrentUser, (user) => forgetting.forget(user.id, payload.password)))
  })
)
