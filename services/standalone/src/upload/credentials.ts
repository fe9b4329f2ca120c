import { FetchHttpClient } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { SynthApi } from "@synth/contracts"
import { Effect, Option, Redacted } from "effect"
import { UploadFailed, UploadUsageError } from "./errors.ts"

export interface CredentialOptions {
  readonly token: Option.Option<Redacted.Redacted>
  readonly email: Option.Option<string>
  readonly password: Option.Option<Redacted.Redacted>
}

const detailOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "detail" in error && typeof error.detail === "string"
    ? error.detail
    : undefined

const logIn = (baseUrl: string, email: string, password: Redacted.Redacted) =>
  Effect.gen(function*() {
    const client = yield* HttpApiClient.make(SynthApi, { baseUrl })
    const tokens = yield* client.auth.login({ payload: { email, password: Redacted.value(password) } })
    return tokens.access_token
  }).pipe(
    Effect.mapError((error) => {
      const detail = detailOf(error)
      return new UploadFailed({
        message: detail === undefined ? `could not log in at ${baseUrl}: ${error.message}` : `login failed: ${detail}`
      })
    }),
    Effect.provide(FetchHttpClient.layer)
  )

/** The access token to upload with: the one given, or a fresh one from logging in with email and password. */
export const accessToken = (
  baseUrl: string,
  { email, password, token }: CredentialOptions
): Effect.Effect<string, UploadFailed | UploadUsageError> => {
  if (Option.isSome(token)) return Effect.succeed(Redacted.value(token.value))
  if (Option.isSome(email) && Option.isSome(password)) return logIn(baseUrl, email.value, password.value)
  return Effect.fail(
    new UploadUsageError({
      message: "no credentials: give --token (or SYNTH_TOKEN), or --email and --password (or SYNTH_EMAIL and SYNTH_PASSWORD)"
    })
  )
}
