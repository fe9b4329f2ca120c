import { describe, expect, it } from "@effect/vitest"
import type { UserId } from "@synth/contracts"
import { Result } from "effect"
import {
  decide,
  EmailAlreadyRegistered,
  evolve,
  initialState,
  RefreshTokenRejected,
  type UserCommand,
  type UserEvent,
  type UserRefusal
} from "./decider.ts"

const userId = "0192f0c0-0000-7000-8000-000000000001" as UserId

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
  version: 1,
  payload: { userId, email: "ada@example.com", passwordHash: "scrypt$hash" }
}
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
    const register: UserCommand = { _tag: "Register", userId, email: "ada@example.com", passwordHash: "scrypt$hash" }

    it("registers an unknown email", () => {
      given().when(register).then([registered])
    })

    it("refuses an email that is already registered", () => {
      given(registered).when(register).thenRefused(EmailAlreadyRegistered)
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
  })
})
