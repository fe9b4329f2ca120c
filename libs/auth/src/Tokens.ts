import { Clock, Context, Effect, Layer, Redacted, Schema } from "effect"
import { jwtVerify, SignJWT } from "jose"
import { randomBytes } from "node:crypto"
import { isLongEnough, minimumSecretBytes } from "./jwtSecret.ts"
import { fromJoseError, TokenRejected } from "./TokenRejected.ts"
import { tokenSettingsFromConfig, type TokenSettings } from "./TokenSettings.ts"

/** One fixed algorithm: accepting whatever `alg` a token names is how "none" and key-confusion attacks get in. */
const algorithm = "HS256"
/** Clocks of the replicas that issue and check tokens may drift apart by this much. */
const clockToleranceSeconds = 5

/** 128 bits from the OS generator; effect's `Random` is a seeded PRNG, fine for tests, not for token ids. */
const randomId = () => randomBytes(16).toString("base64url")

const TokenId = Schema.String.pipe(Schema.check(Schema.isMinLength(22)))
const commonClaims = { sub: Schema.NonEmptyString, jti: TokenId, iat: Schema.Int, exp: Schema.Int }
const AccessClaims = Schema.Struct({ ...commonClaims, token_use: Schema.Literal("access") })
const RefreshClaims = Schema.Struct({ ...commonClaims, token_use: Schema.Literal("refresh"), fam: TokenId })

export interface IssuedToken {
  readonly token: string
  /** The `jti`: what events and the refresh-token family record, never the token itself. */
  readonly tokenId: string
  readonly expiresIn: number
  /** Seconds since the epoch, as in the `exp` claim. */
  readonly expiresAt: number
}

export interface IssuedRefreshToken extends IssuedToken {
  readonly familyId: string
}

export interface VerifiedToken {
  /** The user id. */
  readonly subject: string
  readonly tokenId: string
  /** Seconds since the epoch. */
  readonly issuedAt: number
  readonly expiresAt: number
}

export interface VerifiedRefreshToken extends VerifiedToken {
  readonly familyId: string
}

const verified = (claims: Schema.Struct.Type<typeof commonClaims>): VerifiedToken => ({
  subject: claims.sub,
  tokenId: claims.jti,
  issuedAt: claims.iat,
  expiresAt: claims.exp
})

/**
 * Access and refresh JWTs (HS256). The `token_use` claim keeps the two apart, so a long-lived refresh token never
 * opens the API and an access token never buys a new pair. Time comes from effect's `Clock`, so tests can move it.
 */
export class Tokens extends Context.Service<Tokens>()("@synth/auth/Tokens", {
  make: Effect.fn("Tokens.make")(function*(settings: TokenSettings) {
    if (!isLongEnough(settings.secret)) {
      return yield* Effect.die(new Error(`the token secret must be at least ${minimumSecretBytes} bytes`))
    }
    // Imported once, usable only for HMAC-SHA-256 and not extractable: the raw secret is not kept around.
    const key = yield* Effect.promise(() =>
      crypto.subtle.importKey(
        "raw",
        new TextEncoder().encode(Redacted.value(settings.secret)),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign", "verify"]
      )
    )

    const sign = (subject: string, claims: { readonly token_use: string; readonly fam?: string }, ttl: number) =>
      Effect.gen(function*() {
        const issuedAt = Math.floor((yield* Clock.currentTimeMillis) / 1000)
        const tokenId = randomId()
        const token = yield* Effect.promise(() =>
          new SignJWT(claims)
            .setProtectedHeader({ alg: algorithm, typ: "JWT" })
            .setIssuer(settings.issuer)
            .setAudience(settings.audience)
            .setSubject(subject)
            .setJti(tokenId)
            .setIssuedAt(issuedAt)
            .setExpirationTime(issuedAt + ttl)
            .sign(key)
        )
        return { token, tokenId, expiresIn: ttl, expiresAt: issuedAt + ttl }
      })

    const verify = <A, I>(token: string, use: "access" | "refresh", claims: Schema.Codec<A, I>) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const { payload } = yield* Effect.tryPromise({
          try: () =>
            jwtVerify(token, key, {
              algorithms: [algorithm],
              typ: "JWT",
              issuer: settings.issuer,
              audience: settings.audience,
              requiredClaims: ["sub", "jti", "iat", "exp"],
              clockTolerance: clockToleranceSeconds,
              currentDate: new Date(now)
            }),
          catch: fromJoseError
        })
        if (payload["token_use"] !== use) return yield* new TokenRejected({ reason: "wrong_type" })
        return yield* Effect.mapError(
          Schema.decodeUnknownEffect(claims)(payload),
          (cause) => new TokenRejected({ reason: "malformed", cause })
        )
      })

    return {
      accessTokenTtlSeconds: settings.accessTokenTtlSeconds,

      issueAccess: Effect.fn("Tokens.issueAccess")(function*(subject: string) {
        return yield* sign(subject, { token_use: "access" }, settings.accessTokenTtlSeconds)
      }),

      /** Without a family id this opens a new family (a login); rotation passes the presented token's family on. */
      issueRefresh: Effect.fn("Tokens.issueRefresh")(function*(subject: string, familyId: string = randomId()) {
        const issued = yield* sign(subject, { token_use: "refresh", fam: familyId }, settings.refreshTokenTtlSeconds)
        return { ...issued, familyId } satisfies IssuedRefreshToken
      }),

      verifyAccess: Effect.fn("Tokens.verifyAccess")(function*(token: string) {
        return verified(yield* verify(token, "access", AccessClaims))
      }),

      verifyRefresh: Effect.fn("Tokens.verifyRefresh")(function*(token: string) {
        const claims = yield* verify(token, "refresh", RefreshClaims)
        return { ...verified(claims), familyId: claims.fam } satisfies VerifiedRefreshToken
      })
    }
  })
}) {
  static readonly layer = (settings: TokenSettings) => Layer.effect(this, this.make(settings))
}

/** Tokens configured from the environment: see `tokenSettingsFromConfig`. */
export const TokensLive = Layer.unwrap(Effect.map(tokenSettingsFromConfig, Tokens.layer))
