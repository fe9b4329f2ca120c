import { Config, Duration, Effect, type Redacted, Schema, SchemaIssue } from "effect"
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

const invalid = (message: string) =>
  new Config.ConfigError(new Schema.SchemaError(new SchemaIssue.InvalidValue({ message })))

/** A lifetime in whole seconds, given as seconds ("900") or as a duration ("15 minutes"). */
const lifetimeSeconds = (name: string, fallbackSeconds: number) =>
  Config.Int(name).pipe(
    Config.map(Duration.seconds),
    Config.orElse(() => Config.Duration(name)),
    Config.map((lifetime) => Math.floor(Duration.toSeconds(lifetime))),
    Config.mapEffect((seconds) =>
      seconds >= 1
        ? Effect.succeed(seconds)
        : Effect.fail(invalid(`${name} must be at least 1 second, given in seconds ("900") or as a duration ("15 minutes")`))
    ),
    Config.withDefault(fallbackSeconds)
  )

/** JWT_SECRET (or the generated secret file), JWT_ISSUER, JWT_AUDIENCE, ACCESS_TOKEN_TTL, REFRESH_TOKEN_TTL. */
export const tokenSettingsFromConfig = Effect.all({
  secret: jwtSecretFromConfig,
  issuer: Config.String("JWT_ISSUER").pipe(Config.withDefault(defaultTokenSettings.issuer)),
  audience: Config.String("JWT_AUDIENCE").pipe(Config.withDefault(defaultTokenSettings.audience)),
  accessTokenTtlSeconds: lifetimeSeconds("ACCESS_TOKEN_TTL", defaultTokenSettings.accessTokenTtlSeconds),
  refreshTokenTtlSeconds: lifetimeSeconds("REFRESH_TOKEN_TTL", defaultTokenSettings.refreshTokenTtlSeconds)
})
