import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { SignJWT } from "jose"
import { TokenRejected } from "./TokenRejected.ts"
import { Tokens } from "./Tokens.ts"
import { defaultTokenSettings, type TokenSettings } from "./TokenSettings.ts"

const secret = "a test secret that is long enough for HS256"
const settings: TokenSettings = { ...defaultTokenSettings, secret: Redacted.make(secret) }
const userId = "0190f5c2-6a4e-7b1d-9c3e-2f8a1b4c5d6e"

const tokensWith = (overrides: Partial<TokenSettings> = {}) =>
  Effect.provide(Tokens, Tokens.layer({ ...settings, ...overrides }))

/** Tests run on effect's TestClock; start it at a realistic date rather than 1970. */
const atNoon = TestClock.setTime(Date.parse("2025-06-01T12:00:00Z"))

const rejection = <A, R>(verification: Effect.Effect<A, TokenRejected, R>) =>
  Effect.map(Effect.flip(verification), (error) => error.reason)

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

const validClaims = (nowSeconds: number) => ({
  iss: "synth",
  aud: "synth-api",
  sub: userId,
  jti: "AAAAAAAAAAAAAAAAAAAAAA",
  iat: nowSeconds,
  exp: nowSeconds + 900,
  token_use: "access"
})

describe("Tokens", () => {
  it.effect("issues an access token that verifies to its claims", () =>
    Effect.gen(function*() {
      yield* atNoon
      const tokens = yield* tokensWith()
      const issued = yield* tokens.issueAccess(userId)
      const now = Date.parse("2025-06-01T12:00:00Z") / 1000
      expect(issued).toMatchObject({ expiresIn: 900, expiresAt: now + 900 })
      expect(issued.tokenId).toMatch(/^[A-Za-z0-9_-]{22,}$/)
      expect(yield* tokens.verifyAccess(issued.token)).toEqual({
        subject: userId,
        tokenId: issued.tokenId,
        issuedAt: now,
        expiresAt: now + 900
      })
      const [header] = issued.token.split(".")
      expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toEqual({ alg: "HS256", typ: "JWT" })
    }))

  it.effect("issues refresh tokens that open a family or continue one", () =>
    Effect.gen(function*() {
      yield* atNoon
      const tokens = yield* tokensWith()
      const login = yield* tokens.issueRefresh(userId)
      expect(login.familyId).toMatch(/^[A-Za-z0-9_-]{22,}$/)
      expect(login.expiresIn).toBe(30 * 24 * 60 * 60)
      const rotated = yield* tokens.issueRefresh(userId, login.familyId)
      expect(rotated.tokenId).not.toBe(login.tokenId)
      expect(yield* tokens.verifyRefresh(rotated.token)).toMatchObject({
        subject: userId,
        tokenId: rotated.tokenId,
        familyId: login.familyId
      })
    }))

  it.effect("never accepts one kind of token as the other", () =>
    Effect.gen(function*() {
      const tokens = yield* tokensWith()
      const refresh = yield* tokens.issueRefresh(userId)
      const access = yield* tokens.issueAccess(userId)
      expect(yield* rejection(tokens.verifyAccess(refresh.token))).toBe("wrong_type")
      expect(yield* rejection(tokens.verifyRefresh(access.token))).toBe("wrong_type")
    }))

  it.effect("rejects a tampered signature or payload", () =>
    Effect.gen(function*() {
      const tokens = yield* tokensWith()
      const { token } = yield* tokens.issueAccess(userId)
      const [header, payload, signature] = token.split(".") as [string, string, string]
      // The first character carries six whole bits of the MAC; the last one only partly.
      const flipped = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`
      expect(yield* rejection(tokens.verifyAccess(`${header}.${payload}.${flipped}`))).toBe("bad_signature")

      const claims = JSON.parse(Buffer.from(payload, "base64url").toString())
      const forged = base64url({ ...claims, sub: "someone-else" })
      expect(yield* rejection(tokens.verifyAccess(`${header}.${forged}.${signature}`))).toBe("bad_signature")
    }))

  it.effect("rejects alg none, another HMAC size and another key", () =>
    Effect.gen(function*() {
      yield* atNoon
      const tokens = yield* tokensWith()
      const now = Date.parse("2025-06-01T12:00:00Z") / 1000
      const unsigned = `${base64url({ alg: "none", typ: "JWT" })}.${base64url(validClaims(now))}.`
      expect(yield* rejection(tokens.verifyAccess(unsigned))).toBe("unsupported_algorithm")

      const hs512 = yield* Effect.promise(() =>
        new SignJWT(validClaims(now)).setProtectedHeader({ alg: "HS512", typ: "JWT" }).sign(
          new TextEncoder().encode(secret)
        )
      )
      expect(yield* rejection(tokens.verifyAccess(hs512))).toBe("unsupported_algorithm")

      const otherKey = yield* tokensWith({ secret: Redacted.make("another secret, also long enough for HS256") })
      const foreign = yield* otherKey.issueAccess(userId)
      expect(yield* rejection(tokens.verifyAccess(foreign.token))).toBe("bad_signature")
    }))

  it.effect("rejects a token signed with our key but with another typ or without token_use", () =>
    Effect.gen(function*() {
      yield* atNoon
      const tokens = yield* tokensWith()
      const now = Date.parse("2025-06-01T12:00:00Z") / 1000
      const key = new TextEncoder().encode(secret)
      const { token_use: _, ...withoutUse } = validClaims(now)
      const untyped = yield* Effect.promise(() =>
        new SignJWT(withoutUse).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(key)
      )
      expect(yield* rejection(tokens.verifyAccess(untyped))).toBe("wrong_type")
      const otherTyp = yield* Effect.promise(() =>
        new SignJWT(validClaims(now)).setProtectedHeader({ alg: "HS256", typ: "at+jwt" }).sign(key)
      )
      expect(yield* rejection(tokens.verifyAccess(otherTyp))).toBe("wrong_type")
    }))

  it.effect("rejects what is not a JWT at all", () =>
    Effect.gen(function*() {
      const tokens = yield* tokensWith()
      for (const garbage of ["", "not-a-jwt", "a.b.c", "Bearer x.y.z"]) {
        expect(yield* rejection(tokens.verifyAccess(garbage))).toBe("malformed")
      }
    }))

  it.effect("expires access tokens after their lifetime plus 5 seconds of tolerance", () =>
    Effect.gen(function*() {
      yield* atNoon
      const tokens = yield* tokensWith()
      const { token } = yield* tokens.issueAccess(userId)
      yield* TestClock.adjust("904 seconds")
      yield* tokens.verifyAccess(token)
      yield* TestClock.adjust("2 seconds")
      const error = yield* Effect.flip(tokens.verifyAccess(token))
      expect(error).toBeInstanceOf(TokenRejected)
      expect(error.reason).toBe("expired")
      expect(error.message).toBe("token rejected: expired")
    }))

  it.effect("expires refresh tokens after their configured lifetime", () =>
    Effect.gen(function*() {
      yield* atNoon
      const tokens = yield* tokensWith({ refreshTokenTtlSeconds: 3600 })
      const { token } = yield* tokens.issueRefresh(userId)
      yield* TestClock.adjust("59 minutes")
      yield* tokens.verifyRefresh(token)
      yield* TestClock.adjust("2 minutes")
      expect(yield* rejection(tokens.verifyRefresh(token))).toBe("expired")
    }))

  it.effect("rejects tokens of another issuer or audience", () =>
    Effect.gen(function*() {
      const tokens = yield* tokensWith()
      const fromElsewhere = yield* tokensWith({ issuer: "someone-else" })
      const forElsewhere = yield* tokensWith({ audience: "another-api" })
      expect(yield* rejection(tokens.verifyAccess((yield* fromElsewhere.issueAccess(userId)).token))).toBe("wrong_issuer")
      expect(yield* rejection(tokens.verifyAccess((yield* forElsewhere.issueAccess(userId)).token))).toBe("wrong_audience")
    }))

  it.effect("gives every token a distinct id", () =>
    Effect.gen(function*() {
      const tokens = yield* tokensWith()
      const ids = yield* Effect.forEach(Array.from({ length: 50 }), () => Effect.map(tokens.issueAccess(userId), (t) => t.tokenId))
      expect(new Set(ids).size).toBe(50)
    }))
})
