import { Argument, Command, Flag } from "effect/cli"
import { FetchHttpClient } from "effect/http"
import { Console, Effect, FileSystem, Option, Stream } from "effect"
import { join } from "node:path"
import { byteProgress, readableSize } from "../client/byteProgress.ts"
import { baseUrlOf, connectionOptions } from "../client/options.ts"
import { accessToken, type CredentialOptions } from "../upload/credentials.ts"
import { UploadUsageError } from "../upload/errors.ts"
import { defaultFileName } from "./destination.ts"
import { DownloadFailed } from "./errors.ts"
import { type DownloadFormat, downloadFormats } from "./formats.ts"
import { announcedSize, downloadUrl, requestDownload } from "./request.ts"
import { type Destination, existsMessage, writeBody } from "./writeBody.ts"

const options = {
  dataset: Argument.String("DATASET").pipe(Argument.withDescription("The id of the dataset to download (uploaded or synthetic)")),
  format: Flag.Literals("format", downloadFormats).pipe(
    Flag.optional,
    Flag.withDescription("csv, json, ndjson or parquet (the server's `format` parameter); default: CSV")
  ),
  output: Flag.String("output").pipe(
    Flag.optional,
    Flag.withDescription(
      "Write to this file (or into this directory), or to stdout with -; default: the file name the server gives, " +
        "in the current directory"
    )
  ),
  force: Flag.Boolean("force").pipe(Flag.withDefault(false), Flag.withDescription("Replace the file if it exists (default: refuse, exit 2)")),
  ...connectionOptions
}

interface DownloadInput extends CredentialOptions {
  readonly dataset: string
  readonly format: Option.Option<DownloadFormat>
  readonly output: Option.Option<string>
  readonly force: boolean
  readonly url: string
}

/**
 * Where --output points: stdout for `-`; inside it when it is a directory (the server's file name); else the file
 * itself, refused before anything is downloaded when it exists and --force is absent.
 */
const outputPlan = (output: string, force: boolean) =>
  Effect.gen(function*() {
    if (output === "-") return { kind: "stdout" } as const
    const fs = yield* FileSystem.FileSystem
    const info = yield* Effect.option(fs.stat(output))
    if (Option.isSome(info) && info.value.type === "Directory") return { kind: "directory", path: output } as const
    if (Option.isSome(info) && !force) return yield* new UploadUsageError({ message: existsMessage(output) })
    return { kind: "file", path: output } as const
  })

const download = (input: DownloadInput) =>
  Effect.gen(function*() {
    const baseUrl = yield* baseUrlOf(input.url)
    const format = Option.getOrUndefined(input.format)
    const plan = yield* Option.match(input.output, {
      onNone: () => Effect.succeed({ kind: "directory", path: "." } as const),
      onSome: (output) => outputPlan(output, input.force)
    })
    const token = yield* accessToken(baseUrl, input)
    const response = yield* requestDownload(downloadUrl(baseUrl, input.dataset, format), token, format)

    const destination: Destination = plan.kind === "stdout"
      ? plan
      : {
        kind: "file",
        path: plan.kind === "file" ? plan.path : join(plan.path, defaultFileName(response.headers["content-disposition"], input.dataset, format)),
        replace: input.force
      }
    const progress = byteProgress({ doing: "downloading", done: "received", total: announcedSize(response) })
    let received = 0
    const body = response.stream.pipe(
      Stream.tap((chunk) =>
        Effect.sync(() => {
          received += chunk.length
          progress.update(received)
        })
      ),
      Stream.mapError((error) => new DownloadFailed({ message: `the download from ${baseUrl} broke off: ${error.message}` }))
    )
    yield* writeBody(body, destination).pipe(
      Effect.ensuring(
        Effect.suspend(() => {
          const summary = progress.finish()
          return summary === undefined ? Effect.void : Console.error(summary)
        })
      )
    )
    if (destination.kind === "file") {
      yield* Console.log(`Downloaded dataset ${input.dataset} to ${destination.path} (${readableSize(received)}).`)
    }
  }).pipe(Effect.provide(FetchHttpClient.layer))

export const downloadCommand = Command.make("download", options, download).pipe(
  Command.withDescription(
    "Download a dataset (an upload or a generator's output) as CSV, JSON, NDJSON or Parquet, streamed to a file with " +
      "a progress bar on stderr (one summary line when stderr is not a terminal). The file is named as the server " +
      "names it unless --output says otherwise; an existing file is replaced only with --force. Exit 0 when the file " +
      "is complete, 1 when the server refused (its detail on stderr) or the transfer or the write failed, 2 for usage " +
      "errors (missing credentials, an existing file without --force)."
  )
)
