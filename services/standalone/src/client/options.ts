import { Flag } from "effect/cli"
import { Config, Effect } from "effect"
import { UploadUsageError } from "../upload/errors.ts"

export const defaultUrl = "http://127.0.0.1:8000"

/** An option that may also come from an environment variable, and may be absent from both. */
const optionalWithEnv = <A>(option: Flag.Flag<A>, fromEnv: Config.Config<A>) =>
  option.pipe(Flag.withFallbackConfig(fromEnv), Flag.optional)

/** Where the service is and who is asking: the options every client command of `synth` shares. */
export const connectionOptions = {
  url: Flag.String("url").pipe(
    Flag.withFallbackConfig(Config.String("SYNTH_URL").pipe(Config.withDefault(defaultUrl))),
    Flag.withDescription(`The service's address (env SYNTH_URL; default ${defaultUrl})`)
  ),
  token: optionalWithEnv(Flag.Redacted("token"), Config.Redacted("SYNTH_TOKEN")).pipe(
    Flag.withDescription("An access token (env SYNTH_TOKEN); or give --email and --password")
  ),
  email: optionalWithEnv(Flag.String("email"), Config.String("SYNTH_EMAIL")).pipe(
    Flag.withDescription("Log in with this email first (env SYNTH_EMAIL)")
  ),
  password: optionalWithEnv(Flag.Redacted("password"), Config.Redacted("SYNTH_PASSWORD")).pipe(
    Flag.withDescription("The password for --email (env SYNTH_PASSWORD)")
  )
}

/** --url without its trailing slashes; a usage error when it is not an address. */
export const baseUrlOf = (url: string) =>
  Effect.try({
    try: () => new URL(url).href.replace(/\/+$/, ""),
    catch: () => new UploadUsageError({ message: `--url ${url} is not an address such as ${defaultUrl}` })
  })
