import { Config, Duration, Effect, type Redacted } from "effect"
import { jwtSecretFromConfig } from "./jwtSecret.ts"

export interface TokenSettings {
  /** HS256 key material: the UTF-8 bytes of this string, at least 32 of them. */
  readonly secret: Redacted.Redacted<string>
  readonly issuer: string
  readonly audience: string
  readonly accessTokenTtlSeconds: number
  readonly refreshTokenTtlSeconds: number
}

export const defaultTokenSettings = {
  issuer: "synth",
  audience: "synth-api",
  accessTokenTtlSeconds: 15 * 60,
  refreshTokenTtlSeconds: 30 * 24 * 60 * 60
} as const satisfies Omit<TokenSettings, "secret">

/** A lifetime in whole seconds, given as seconds ("900") or as a duration ("15 minutes"). */
const lifetimeSeconds = (name: string, fallbackSeconds: number) =>
  Config.integer(name).pipe(
    Config.map(Duration.seconds),
    Config.orElse(() => Config.duration(name)),
    Config.map((lifetime) => Math.floor(Duration.toSeconds(lifetime))),
    Config.validate({
      message: `${name} must be at least 1 second, given in seconds ("900") or as a duration ("15 minutes")`,
      validation: (seconds) => seconds >= 1
    }),
    Config.withDefault(fallbackSeconds)
  )

/** JWT_SECRET (or the generated secret file), JWT_ISSUER, JWT_AUDIENCE, ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL. */
export const tokenSettingsFromConfig = Effect.all({
  secret: jwtSecretFromConfig,
  issuer: Config.string("JWT_ISSUER").pipe(Config.withDefault(defaultTokenSettings.issuer)),
  audience: Config.string("JWT_AUDIENCE").pipe(Config.withDefault(defaultTokenSettings.audience)),
  accessTokenTtlSeconds: lifetimeSeconds("ACCESS_TOKEN_TTL", defaultTokenSettings.accessTokenTtlSeconds),
  refreshTokenTtlSeconds: lifetimeSeconds("REFRESH_TOKEN_TTL", defaultTokenSettings.refreshTokenTtlSeconds)
})
