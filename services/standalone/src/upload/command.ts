import { Args, Command, Options } from "@effect/cli"
import { Config, Console, Effect } from "effect"
import { stat } from "node:fs/promises"
import { basename } from "node:path"
import { interpretAnswer } from "./answer.ts"
import { accessToken, type CredentialOptions } from "./credentials.ts"
import { UploadFailed, UploadUsageError } from "./errors.ts"
import { byteProgress } from "./progress.ts"
import { sendFile } from "./send.ts"

const defaultUrl = "http://127.0.0.1:8000"

/** An option that may also come from an environment variable, and may be absent from both. */
const optionalWithEnv = <A>(option: Options.Options<A>, fromEnv: Config.Config<A>) =>
  option.pipe(Options.optional, Options.withFallbackConfig(Config.option(fromEnv)))

const options = {
  file: Args.file({ name: "FILE", exists: "yes" }).pipe(
    Args.withDescription("CSV (with a header row), JSON array of objects, or newline-delimited JSON")
  ),
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

const baseUrlOf = (url: string) =>
  Effect.try({
    try: () => new URL(url).href.replace(/\/+$/, ""),
    catch: () => new UploadUsageError({ message: `--url ${url} is not an address such as ${defaultUrl}` })
  })

const upload = (input: { readonly file: string; readonly url: string } & CredentialOptions) =>
  Effect.gen(function*() {
    const baseUrl = yield* baseUrlOf(input.url)
    const token = yield* accessToken(baseUrl, input)
    const size = yield* Effect.tryPromise({
      try: () => stat(input.file).then((stats) => stats.size),
      catch: (error) => new UploadFailed({ message: `could not read ${input.file}: ${String(error)}` })
    })
    const filename = basename(input.file)
    const progress = byteProgress(size)
    const endpoint = new URL(`${baseUrl}/datasets/upload`)
    const answer = yield* sendFile(endpoint, token, { path: input.file, filename, size }, progress.update).pipe(
      Effect.ensuring(
        Effect.suspend(() => {
          const summary = progress.finish()
          return summary === undefined ? Effect.void : Console.error(summary)
        })
      )
    )
    const result = yield* interpretAnswer(answer)
    if (result.status === "processing") {
      yield* Console.log(
        `Uploaded ${result.filename}: dataset ${result.id} is still being processed; see GET /datasets/${result.id}.`
      )
      return
    }
    yield* Console.log(
      `Uploaded ${result.filename}: dataset ${result.id}, ${result.row_count ?? "?"} rows, ${result.column_count ?? "?"} columns.`
    )
  })

export const uploadCommand = Command.make("upload", options, upload).pipe(
  Command.withDescription(
    "Upload a CSV or JSON file as a new dataset (streamed, with a progress bar) and print its id, rows and columns."
  )
)
