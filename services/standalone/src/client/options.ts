import { Options } from "@effect/cli"
import { Config, Effect } from "effect"
import { UploadUsageError } from "../upload/errors.ts"

export const defaultUrl = "http://127.0.0.1:8000"

/** An option that may also come from an environment variable, and may be absent from both. */
const optionalWithEnv = <A>(option: Options.Options<A>, fromEnv: Config.Config<A>) =>
  option.pipe(Options.optional, Options.withFallbackConfig(Config.option(fromEnv)))

/** Where the service is and who is asking: the options every client command of `synth` shares. */
export const connectionOptions = {
  url: Options.text("url").pipe(
    Options.withFallbackConfig(Config.string("SYNTH_URL").pipe(Config.withDefault(defaultUrl))),
    Options.withDescription(`The service's address (env SYNTH_URL; default ${defaultUrl})`)
  ),
  token: optionalWithEnv(Options.redacted("token"), Config.redacted("SYNTH_TOKEN")).pipe(
    Options.withDescription("An access token (env SYNTH_TOKEN); or give --email and --password")
  ),
  email: optionalWithEnv(Options.text("email"), Config.string("SYNTH_EMAIL")).pipe(
    Options.withDescription("Log in with this email first (env SYNTH_EMAIL)")
  ),
  password: optionalWithEnv(Options.redacted("password"), Config.redacted("SYNTH_PASSWORD")).pipe(
    Options.withDescription("The password for --email (env SYNTH_PASSWORD)")
  )
}

/** --url without its trailing slashes; a usage error when it is not an address. */
export const baseUrlOf = (url: string) =>
  Effect.try({
    try: () => new URL(url).href.replace(/\/+$/, ""),
    catch: () => new UploadUsageError({ message: `--url ${url} is not an address such as ${defaultUrl}` })
  })
