import { describe, expect, it } from "@effect/vitest"
import type { SealedValue, UserId } from "@synth/contracts"
import { Result } from "effect"
import {
  AccountUnknown,
  ConfirmationRefused,
  decide,
  EmailAlreadyRegistered,
  evolve,
  initialState,
  RefreshTokenRejected,
  registrationOutcome,
  type UserCommand,
  type UserEvent,
  type UserRefusal
} from "./decider.ts"

const userId = "0192f0c0-0000-7000-8000-000000000001" as UserId
const secondUserId = "0192f0c0-0000-7000-8000-000000000002" as UserId

/** The decider never opens sealed values: any well-formed ones do. */
const sealed = (keyId: UserId, ciphertext: string): SealedValue => ({ alg: "A256GCM", keyId, iv: "AAAAAAAAAAAAAAAA", ciphertext })
const sealedEmail = sealed(userId, "c2VhbGVkLWVtYWls")
const sealedHash = sealed(userId, "c2VhbGVkLWhhc2g")

const given = (...events: ReadonlyArray<UserEvent>) => ({
  when: (command: UserCommand) => {
    const outcome = decide(command, events.reduce(evolve, initialState))
    return {
      then: (expected: ReadonlyArray<UserEvent>) => expect(outcome).toStrictEqual(Result.succeed(expected)),
      thenRefused: (refusal: new (...args: never) => UserRefusal) =>
        expect(Result.isFailure(outcome) && outcome.failure instanceof refusal).toBe(true)
    }
  }
})

const registered: UserEvent = {
  type: "user.registered",
  version: 2,
  payload: { userId, email: sealedEmail, passwordHash: sealedHash }
}
const forgotten: UserEvent = { type: "user.forgotten", version: 1, payload: { userId } }
const loggedIn: UserEvent = {
  type: "user.logged-in",
  version: 1,
  payload: { userId, refreshTokenId: "refresh-token-0001", familyId: "family-000000001" }
}
const refreshed: UserEvent = {
  type: "user.token-refreshed",
  version: 1,
  payload: {
    userId,
    previousRefreshTokenId: "refresh-token-0001",
    refreshTokenId: "refresh-token-0002",
    familyId: "family-000000001"
  }
}

describe("user decider", () => {
  describe("Register", () => {
    const register: UserCommand = { _tag: "Register", userId, email: sealedEmail, passwordHash: sealedHash }

    it("registers an unknown email, with the personal data sealed as the command brings it", () => {
      given().when(register).then([registered])
    })

    it("refuses an email that is already registered", () => {
      given(registered).when(register).thenRefused(EmailAlreadyRegistered)
    })

    it("registers the email of a forgotten user again, as a new user", () => {
      const again = { _tag: "Register", userId: secondUserId, email: sealed(secondUserId, "bmV3"), passwordHash: sealed(secondUserId, "bmV3LWhhc2g") } as const
      given(registered, forgotten)
        .when(again)
        .then([{ type: "user.registered", version: 2, payload: { userId: secondUserId, email: again.email, passwordHash: again.passwordHash } }])
    })
  })

  describe("a registration raced by another replica", () => {
    const raced: UserEvent = {
      type: "user.registered",
      version: 2,
      payload: { userId: secondUserId, email: sealed(secondUserId, "cmFjZWQ"), passwordHash: sealed(secondUserId, "cmFjZWQtaGFzaA") }
    }

    it("leaves the email to the registration first in the log, as the projection does", () => {
      const state = [registered, raced].reduce(evolve, initialState)
      expect(state.status === "registered" && state.userId).toBe(userId)
    })

    it("is the account when it came first, and refused as a taken email when it came second", () => {
      const state = [registered, raced].reduce(evolve, initialState)
      expect(registrationOutcome(state, userId)).toStrictEqual(Result.succeed(userId))
      const lost = registrationOutcome(state, secondUserId)
      expect(Result.isFailure(lost) && lost.failure).toBeInstanceOf(EmailAlreadyRegistered)
    })

    it("is refused when the email shows no account: none projected, or one already forgotten", () => {
      const lost = registrationOutcome([registered, forgotten].reduce(evolve, initialState), userId)
      expect(Result.isFailure(lost) && lost.failure).toBeInstanceOf(EmailAlreadyRegistered)
      expect(Result.isFailure(registrationOutcome(initialState, userId))).toBe(true)
    })
  })

  describe("LogIn", () => {
    const logIn = (passwordMatches: boolean): UserCommand =>
      passwordMatches
        ? { _tag: "LogIn", passwordMatches, refreshTokenId: "refresh-token-0001", familyId: "family-000000001" }
        : { _tag: "LogIn", passwordMatches }

    it("opens a refresh-token family when the password matches", () => {
      given(registered).when(logIn(true)).then([loggedIn])
    })

    it("records a failure for a wrong password", () => {
      given(registered)
        .when(logIn(false))
        .then([{ type: "user.login-failed", version: 1, payload: { reason: "wrong_password" } }])
    })

    it("records a failure for an unknown email, whatever the password check said", () => {
      given()
        .when(logIn(true))
        .then([{ type: "user.login-failed", version: 1, payload: { reason: "unknown_email" } }])
    })

    it("treats a forgotten user's email as unknown", () => {
      given(registered, loggedIn, forgotten)
        .when(logIn(true))
        .then([{ type: "user.login-failed", version: 1, payload: { reason: "unknown_email" } }])
    })
  })

  describe("Refresh", () => {
    const refresh = (presentedTokenId: string): UserCommand => ({
      _tag: "Refresh",
      presentedTokenId,
      newRefreshTokenId: "refresh-token-0002"
    })

    it("rotates an unused refresh token", () => {
      given(registered, loggedIn).when(refresh("refresh-token-0001")).then([refreshed])
    })

    it("revokes the family when a used token is presented again", () => {
      given(registered, loggedIn, refreshed)
        .when(refresh("refresh-token-0001"))
        .then([
          {
            type: "user.refresh-token-reused",
            version: 1,
            payload: { userId, refreshTokenId: "refresh-token-0001", familyId: "family-000000001" }
          }
        ])
    })

    it("refuses the newest token of a revoked family", () => {
      const reused: UserEvent = {
        type: "user.refresh-token-reused",
        version: 1,
        payload: { userId, refreshTokenId: "refresh-token-0001", familyId: "family-000000001" }
      }
      given(registered, loggedIn, refreshed, reused).when(refresh("refresh-token-0002")).thenRefused(RefreshTokenRejected)
    })

    it("refuses a token it never issued", () => {
      given(registered, loggedIn).when(refresh("refresh-token-9999")).thenRefused(RefreshTokenRejected)
    })

    it("refuses any token for an unknown user", () => {
      given().when(refresh("refresh-token-0001")).thenRefused(RefreshTokenRejected)
    })

    it("refuses every token of a forgotten user, even one never used", () => {
      given(registered, loggedIn, forgotten).when(refresh("refresh-token-0001")).thenRefused(RefreshTokenRejected)
    })
  })

  describe("Forget", () => {
    const forget = (passwordMatches: boolean): UserCommand => ({ _tag: "Forget", passwordMatches })

    it("forgets a registered user whose password is confirmed", () => {
      given(registered, loggedIn, refreshed).when(forget(true)).then([forgotten])
    })

    it("refuses without the right password, and forgets nothing", () => {
      given(registered, loggedIn).when(forget(false)).thenRefused(ConfirmationRefused)
    })

    it("refuses to forget a user twice", () => {
      given(registered, forgotten).when(forget(true)).thenRefused(AccountUnknown)
    })

    it("refuses to forget an account that does not exist", () => {
      given().when(forget(true)).thenRefused(AccountUnknown)
    })
  })

  describe("a registration written before sealing (v1, upcast)", () => {
    const legacy: UserEvent = {
      type: "user.registered",
      version: 2,
      payload: { userId, email: { plain: "ada@example.com" }, passwordHash: { plain: "scrypt$hash" } }
    }

    it("is an account like any other: it logs in and can be forgotten", () => {
      given(legacy).when({ _tag: "LogIn", passwordMatches: true, refreshTokenId: "refresh-token-0001", familyId: "family-000000001" }).then([loggedIn])
      given(legacy).when({ _tag: "Forget", passwordMatches: true }).then([forgotten])
    })
  })
})
