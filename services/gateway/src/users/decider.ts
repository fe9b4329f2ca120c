import type { DomainEventOf, PersonalData, SealedValue, UserId } from "@synth/contracts"
import { Data, Result } from "effect"

/**
 * The user aggregate as a decider: `decide(command, state)` returns the events to append or a refusal;
 * `evolve(state, event)` folds events into state. Pure: ids, hashes, the sealed personal values and the password
 * check come in with the command.
 */

export type UserEvent = DomainEventOf<
  | "user.registered"
  | "user.logged-in"
  | "user.login-failed"
  | "user.token-refreshed"
  | "user.refresh-token-reused"
  | "user.forgotten"
>

interface RefreshToken {
  readonly familyId: string
  readonly used: boolean
}

export type UserState =
  | { readonly status: "absent" }
  | {
      readonly status: "registered"
      readonly userId: UserId
      /** As the log holds them: sealed (or plain, from a v1 event); the decisions never need them in clear. */
      readonly email: PersonalData
      readonly passwordHash: PersonalData
      readonly refreshTokens: ReadonlyMap<string, RefreshToken>
      readonly revokedFamilies: ReadonlySet<string>
    }
  /** The account was deleted: nothing of it is usable, and its email is free to register again. */
  | { readonly status: "forgotten"; readonly userId: UserId }

export const initialState: UserState = { status: "absent" }

export type UserCommand =
  | { readonly _tag: "Register"; readonly userId: UserId; readonly email: SealedValue; readonly passwordHash: SealedValue }
  /** The outcome of checking the password against the stored hash, with the refresh token to open on success. */
  | { readonly _tag: "LogIn"; readonly passwordMatches: false }
  | { readonly _tag: "LogIn"; readonly passwordMatches: true; readonly refreshTokenId: string; readonly familyId: string }
  | { readonly _tag: "Refresh"; readonly presentedTokenId: string; readonly newRefreshTokenId: string }
  /** Delete the account (the right to be forgotten), confirmed by the outcome of checking its password. */
  | { readonly _tag: "Forget"; readonly passwordMatches: boolean }

export class EmailAlreadyRegistered extends Data.TaggedError("EmailAlreadyRegistered")<{}> {}
/** The presented refresh token is unknown to this user or its family was revoked. */
export class RefreshTokenRejected extends Data.TaggedError("RefreshTokenRejected")<{ readonly reason: string }> {}
/** There is no account to forget: never registered, or already forgotten. */
export class AccountUnknown extends Data.TaggedError("AccountUnknown")<{}> {}
/** The password sent to confirm a deletion is not the account's. */
export class ConfirmationRefused extends Data.TaggedError("ConfirmationRefused")<{}> {}

export type UserRefusal = EmailAlreadyRegistered | RefreshTokenRejected | AccountUnknown | ConfirmationRefused

export const decide = (
  command: UserCommand,
  state: UserState
): Result.Result<ReadonlyArray<UserEvent>, UserRefusal> => {
  switch (command._tag) {
    case "Register":
      return state.status === "registered"
        ? Result.fail(new EmailAlreadyRegistered())
        : Result.succeed([
            {
              type: "user.registered",
              version: 2,
              payload: { userId: command.userId, email: command.email, passwordHash: command.passwordHash }
            }
          ])
    case "LogIn":
      if (state.status !== "registered") {
        return Result.succeed([{ type: "user.login-failed", version: 1, payload: { reason: "unknown_email" } }])
      }
      return Result.succeed([
        command.passwordMatches
          ? {
              type: "user.logged-in",
              version: 1,
              payload: { userId: state.userId, refreshTokenId: command.refreshTokenId, familyId: command.familyId }
            }
          : { type: "user.login-failed", version: 1, payload: { reason: "wrong_password" } }
      ])
    case "Refresh": {
      if (state.status === "absent") return Result.fail(new RefreshTokenRejected({ reason: "unknown user" }))
      if (state.status === "forgotten") return Result.fail(new RefreshTokenRejected({ reason: "forgotten user" }))
      const token = state.refreshTokens.get(command.presentedTokenId)
      if (token === undefined) return Result.fail(new RefreshTokenRejected({ reason: "unknown refresh token" }))
      if (state.revokedFamilies.has(token.familyId)) {
        return Result.fail(new RefreshTokenRejected({ reason: "refresh-token family revoked" }))
      }
      const ids = { userId: state.userId, familyId: token.familyId }
      return Result.succeed([
        token.used
          ? {
              type: "user.refresh-token-reused",
              version: 1,
              payload: { ...ids, refreshTokenId: command.presentedTokenId }
            }
          : {
              type: "user.token-refreshed",
              version: 1,
              payload: {
                ...ids,
                previousRefreshTokenId: command.presentedTokenId,
                refreshTokenId: command.newRefreshTokenId
              }
            }
      ])
    }
    case "Forget":
      if (state.status !== "registered") return Result.fail(new AccountUnknown())
      if (!command.passwordMatches) return Result.fail(new ConfirmationRefused())
      return Result.succeed([{ type: "user.forgotten", version: 1, payload: { userId: state.userId } }])
  }
}

/**
 * Whether the registration of `userId`, once appended, is the email's account: it is not when another replica's
 * registration of the email came first in the log, and the client must hear that the email is taken.
 */
export const registrationOutcome = (stateAfter: UserState, userId: UserId): Result.Result<UserId, EmailAlreadyRegistered> =>
  stateAfter.status === "registered" && stateAfter.userId === userId
    ? Result.succeed(userId)
    : Result.fail(new EmailAlreadyRegistered())

/**
 * Folds one event into the state. The state of an email, too: two gateway replicas may each find an email free and
 * append its registration; the first in the log is the account (the projection keeps it, as this fold does) and
 * the later one registers nothing.
 */
export const evolve = (state: UserState, event: UserEvent): UserState => {
  switch (event.type) {
    case "user.registered":
      if (state.status === "registered") return state
      return {
        status: "registered",
        userId: event.payload.userId,
        email: event.payload.email,
        passwordHash: event.payload.passwordHash,
        refreshTokens: new Map(),
        revokedFamilies: new Set()
      }
    case "user.login-failed":
      return state
    case "user.logged-in":
      return withTokens(state, (tokens) =>
        tokens.set(event.payload.refreshTokenId, { familyId: event.payload.familyId, used: false })
      )
    case "user.token-refreshed":
      return withTokens(state, (tokens) =>
        tokens
          .set(event.payload.previousRefreshTokenId, { familyId: event.payload.familyId, used: true })
          .set(event.payload.refreshTokenId, { familyId: event.payload.familyId, used: false })
      )
    case "user.refresh-token-reused":
      return state.status === "registered"
        ? { ...state, revokedFamilies: new Set(state.revokedFamilies).add(event.payload.familyId) }
        : state
    case "user.forgotten":
      return { status: "forgotten", userId: event.payload.userId }
  }
}

const withTokens = (state: UserState, change: (tokens: Map<string, RefreshToken>) => void): UserState => {
  if (state.status !== "registered") return state
  const tokens = new Map(state.refreshTokens)
  change(tokens)
  return { ...state, refreshTokens: tokens }
}
