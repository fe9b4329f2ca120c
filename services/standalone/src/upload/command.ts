import { Argument, Command } from "effect/cli"
import { Console, Effect } from "effect"
import { stat } from "node:fs/promises"
import { basename } from "node:path"
import { byteProgress } from "../client/byteProgress.ts"
import { baseUrlOf, connectionOptions } from "../client/options.ts"
import { interpretAnswer } from "./answer.ts"
import { accessToken, type CredentialOptions } from "./credentials.ts"
import { UploadFailed } from "./errors.ts"
import { sendFile } from "./send.ts"

const options = {
  file: Argument.File("FILE", { mustExist: true }).pipe(
    Argument.withDescription("CSV (with a header row), JSON array of objects, or newline-delimited JSON")
  ),
  ...connectionOptions
}

const upload = (input: { readonly file: string; readonly url: string } & CredentialOptions) =>
  Effect.gen(function*() {
    const baseUrl = yield* baseUrlOf(input.url)
    const token = yield* accessToken(baseUrl, input)
    const size = yield* Effect.tryPromise({
      try: () => stat(input.file).then((stats) => stats.size),
      catch: (error) => new UploadFailed({ message: `could not read ${input.file}: ${String(error)}` })
    })
    const filename = basename(input.file)
    const progress = byteProgress({ doing: "uploading", done: "sent", total: size })
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
