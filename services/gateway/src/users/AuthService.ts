import {
  EmailTaken,
  Forbidden,
  InvalidCredentials,
  InvalidToken,
  userActor,
  ValidationFailed,
  type Role,
  UserId
} from "@synth/contracts"
import { PasswordHasher, Tokens } from "@synth/auth"
import { Ids } from "@synth/eventlog"
import { Context, Effect, Layer, Option, Result } from "effect"
import type { NonEmptyReadonlyArray } from "effect/Array"
import { GatewayConfig } from "../config.ts"
import { RequestEvents } from "../events/RequestEvents.ts"
import { decide, registrationOutcome, type UserCommand, type UserEvent, type UserState } from "./decider.ts"
import { stateOfReadModel } from "./readModelState.ts"
import { makeStripedLock } from "./StripedLock.ts"
import { UserKeys } from "./UserKeys.ts"
import { UserRepository, type UserRow } from "./UserRepository.ts"

export interface Credentials {
  readonly email: string
  readonly password: string
}

/** Emails are compared case-insensitively: `Ada@Example.com` and `ada@example.com` are one account. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase()

/**
 * Registration, login, refresh and the current user. Each command loads the aggregate's state, lets the decider
 * decide, appends the events and waits until the read models show them (read-your-writes), so the next request of
 * the same client sees its own effect.
 */
export class AuthService extends Context.Service<AuthService>()("@synth/gateway/AuthService", {
  make: Effect.gen(function* () {
    const users = yield* UserRepository
    const keys = yield* UserKeys
    const requestEvents = yield* RequestEvents
    const ids = yield* Ids
    const hasher = yield* PasswordHasher
    const tokens = yield* Tokens
    const config = yield* GatewayConfig
    const serialised = yield* makeStripedLock(64)
    const auditors = new Set(config.auditorEmails.map(normaliseEmail))
    /** Compared against when the email is unknown, so a login takes as long whether or not the account exists. */
    const decoyHash = yield* hasher.hash("decoy password that never matches")
    /** A user id no account has (ids are v7; this one is v4-shaped): its key is never found. */
    const decoyKeyOwner = "00000000-0000-4000-8000-000000000000"

    const rolesOf = (email: string): ReadonlyArray<Role> => (auditors.has(email) ? ["user", "auditor"] : ["user"])

    const commit = Effect.fn("AuthService.commit")(function* (
      aggregateId: string,
      command: UserCommand,
      state: UserState
    ) {
      const decision = decide(command, state)
      if (Result.isFailure(decision) || decision.success.length === 0) return decision
      yield* requestEvents.commit(decision.success as NonEmptyReadonlyArray<UserEvent>, {
        aggregateId,
        actor: state.status === "registered" ? userActor(state.userId) : "anonymous",
        notVisibleDetail: "The change was recorded but is not visible yet. Retry in a moment."
      })
      return decision
    })

    const issuePair = Effect.fn("AuthService.issuePair")(function* (userId: UserId, refresh: { readonly token: string }) {
      const access = yield* tokens.issueAccess(userId)
      return {
        access_token: access.token,
        refresh_token: refresh.token,
        token_type: "bearer" as const,
        expires_in: access.expiresIn
      }
    })

    const register = Effect.fn("AuthService.register")(function* (credentials: Credentials) {
      const email = normaliseEmail(credentials.email)
      if (credentials.password.toLowerCase() === email) {
        return yield* new ValidationFailed({
          detail: "The password must not be the email address.",
          errors: [{ field: "password", message: "must not be the email address" }]
        })
      }
      return yield* serialised(
        email,
        Effect.gen(function* () {
          const state = yield* users.stateForEmail(email)
          if (state.status === "registered") {
            return yield* new EmailTaken({ detail: `An account for ${email} already exists. Log in instead.` })
          }
          const userId = UserId.make(yield* ids.next)
          const passwordHash = yield* hasher.hash(credentials.password)
          // The key exists before the event that needs it. It is destroyed where the registration is refused; an
          // append that fails may leave a key that no event uses (it opens nothing), but never an event without one.
          const key = yield* keys.create(userId)
          const sealed = {
            email: keys.seal(key, userId, "email", email),
            passwordHash: keys.seal(key, userId, "passwordHash", passwordHash)
          }
          const taken = Effect.andThen(
            keys.destroy(userId),
            new EmailTaken({ detail: `An account for ${email} already exists. Log in instead.` })
          )
          const outcome = yield* commit(userId, { _tag: "Register", userId, ...sealed }, state)
          if (Result.isFailure(outcome)) return yield* taken
          // Another replica may have found the email free too: the account is the registration first in the log.
          // The loser's key is destroyed, which keeps its registration out of the read models for good, a replay
          // included, whatever happens to the first account.
          const account = yield* users.findByEmail(email)
          const registered = registrationOutcome(stateOfReadModel(account, []), userId)
          if (Result.isFailure(registered) || Option.isNone(account)) return yield* taken
          return { id: account.value.id, email, created_at: account.value.createdAt }
        })
      )
    })

    /**
     * Whether the password is the account's. Without an account a key is looked up all the same (one that does not
     * exist) and the decoy hash compared, so the answer takes as long whether or not the email has an account.
     */
    const passwordMatchesOf = Effect.fn("AuthService.passwordMatches")(function* (state: UserState, password: string) {
      const hash = state.status === "registered"
        ? yield* keys.reveal("passwordHash", state.passwordHash)
        : yield* Effect.as(keys.find(decoyKeyOwner), Option.none<string>())
      const matches = yield* hasher.verify(password, Option.getOrElse(hash, () => decoyHash))
      return matches && Option.isSome(hash)
    })

    const login = Effect.fn("AuthService.login")(function* (credentials: Credentials) {
      const email = normaliseEmail(credentials.email)
      const state = yield* users.stateForEmail(email)
      const passwordMatches = yield* passwordMatchesOf(state, credentials.password)
      const refresh =
        state.status === "registered" && passwordMatches
          ? Option.some(yield* tokens.issueRefresh(state.userId))
          : Option.none()
      const aggregateId = state.status === "registered" ? state.userId : ids.forName(`user-email:${email}`)
      const command: UserCommand = Option.match(refresh, {
        onNone: () => ({ _tag: "LogIn", passwordMatches: false }),
        onSome: (token) => ({
          _tag: "LogIn",
          passwordMatches: true,
          refreshTokenId: token.tokenId,
          familyId: token.familyId
        })
      })
      yield* commit(aggregateId, command, state)
      if (state.status !== "registered" || Option.isNone(refresh)) {
        return yield* new InvalidCredentials({ detail: "The email or the password is wrong." })
      }
      return yield* issuePair(state.userId, refresh.value)
    })

    const refresh = Effect.fn("AuthService.refresh")(function* (presented: string) {
      const claims = yield* tokens.verifyRefresh(presented).pipe(
        Effect.mapError(() => new InvalidToken({ detail: "The refresh token is invalid or expired. Log in again." }))
      )
      return yield* serialised(
        claims.familyId,
        Effect.gen(function* () {
          const state = yield* users.stateForRefresh(claims.subject, claims.tokenId)
          const next = yield* tokens.issueRefresh(claims.subject, claims.familyId)
          const outcome = yield* commit(
            claims.subject,
            { _tag: "Refresh", presentedTokenId: claims.tokenId, newRefreshTokenId: next.tokenId },
            state
          )
          const rotated = Result.isSuccess(outcome) && outcome.success.some((event) => event.type === "user.token-refreshed")
          if (!rotated) {
            return yield* new InvalidToken({
              detail: "This refresh token was already used or revoked. Log in again."
            })
          }
          return yield* issuePair(UserId.make(claims.subject), next)
        })
      )
    })

    /** The profile of an authenticated user, with the email opened; none for an account that is gone or forgotten. */
    const profile = (user: UserRow) =>
      Effect.map(
        keys.reveal("email", user.email),
        Option.map((email) => ({ id: user.id, email, created_at: user.createdAt, roles: rolesOf(email) }))
      )

    const findProfile = (userId: string) =>
      Effect.flatMap(users.findById(userId), Option.match({ onNone: () => Effect.succeedNone, onSome: profile }))

    /**
     * DELETE /auth/me: checks the password, runs `erase` (the deletion of everything the user owns, each with its
     * own event), then appends `user.forgotten`, whose projection removes the account and destroys its key. A
     * failure in `erase` leaves the account as it was, so the client can send the request again.
     */
    const forget = <E, R>(userId: UserId, password: string, erase: Effect.Effect<void, E, R>) =>
      serialised(
        userId,
        Effect.gen(function* () {
          const state = yield* users.stateForId(userId)
          const passwordMatches = yield* passwordMatchesOf(state, password)
          const decision = decide({ _tag: "Forget", passwordMatches }, state)
          if (Result.isFailure(decision)) {
            return yield* decision.failure._tag === "ConfirmationRefused"
              ? new Forbidden({ detail: "The password is not this account's: nothing was deleted. Send the account's password as {\"password\": \"...\"}." })
              : new InvalidToken({ detail: "The account of this token no longer exists." })
          }
          yield* erase
          yield* commit(userId, { _tag: "Forget", passwordMatches }, state)
        })
      ).pipe(Effect.withSpan("AuthService.forget"))

    return { register, login, refresh, findProfile, forget } as const
  }),
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(
    Layer.provide([UserRepository.layer, RequestEvents.layer, UserKeys.layer])
  )
}
