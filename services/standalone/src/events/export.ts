import { Command, Flag } from "effect/cli"
import { FetchHttpClient } from "effect/http"
import * as NodeSink from "@effect/platform-node/NodeSink"
import { ndjsonContentType } from "@synth/contracts"
import { Console, Effect, FileSystem, Option, Sink, Stream } from "effect"
import { baseUrlOf, connectionOptions } from "../client/options.ts"
import { GenerationFailed } from "../generate/errors.ts"
import { accessToken, type CredentialOptions } from "../upload/credentials.ts"
import { type FilterInput, filterOptions, getEvents, queryOf } from "./feed.ts"

const options = {
  ...filterOptions,
  until: Flag.String("until").pipe(
    Flag.optional,
    Flag.withDescription("Only events that occurred before this ISO 8601 time (exclusive)")
  ),
  fromPosition: Flag.Int("from-position").pipe(
    Flag.optional,
    Flag.withDescription("Only events at this feed position or later (each event's `position`)")
  ),
  toPosition: Flag.Int("to-position").pipe(
    Flag.optional,
    Flag.withDescription("Only events at this feed position or earlier")
  ),
  output: Flag.File("output").pipe(
    Flag.optional,
    Flag.withDescription("Write the NDJSON to this file (replaced if it exists) instead of stdout, with progress on stderr")
  ),
  ...connectionOptions
}

interface ExportInput extends CredentialOptions, FilterInput {
  readonly until: Option.Option<string>
  readonly fromPosition: Option.Option<number>
  readonly toPosition: Option.Option<number>
  readonly output: Option.Option<string>
  readonly url: string
}

const newline = 10

const countLines = (bytes: Uint8Array) => {
  let lines = 0
  for (const byte of bytes) if (byte === newline) lines++
  return lines
}

/** Counts what passes; on a terminal, redraws one line on stderr at most every quarter second. */
const exportProgress = (live: boolean) => {
  const started = performance.now()
  let events = 0
  let bytes = 0
  let drawn = 0
  const seen = (chunk: Uint8Array) =>
    Effect.sync(() => {
      events += countLines(chunk)
      bytes += chunk.length
      if (!live || performance.now() - drawn < 250) return
      drawn = performance.now()
      process.stderr.write(`\rexporting: ${events} events, ${bytes} bytes`)
    })
  const summary = (destination: string) => {
    const seconds = (performance.now() - started) / 1000
    return `${live ? "\r" : ""}exported ${events} events (${bytes} bytes) to ${destination} in ${seconds.toFixed(2)} s`
  }
  return { seen, summary }
}

const exportEvents = (input: ExportInput) =>
  Effect.gen(function*() {
    const baseUrl = yield* baseUrlOf(input.url)
    const token = yield* accessToken(baseUrl, input)
    const query = {
      ...queryOf(input),
      ...Option.match(input.until, { onNone: () => ({}), onSome: (until) => ({ until }) }),
      ...Option.match(input.fromPosition, { onNone: () => ({}), onSome: (from) => ({ from_position: String(from) }) }),
      ...Option.match(input.toPosition, { onNone: () => ({}), onSome: (to) => ({ to_position: String(to) }) })
    }
    const response = yield* getEvents(baseUrl, token, query, ndjsonContentType)
    const progress = exportProgress(Option.isSome(input.output) && process.stderr.isTTY === true)
    const body = response.stream.pipe(
      Stream.tap(progress.seen),
      Stream.mapError((error) => new GenerationFailed({ message: `the export from ${baseUrl} broke off: ${error.message}` }))
    )
    const written = (error: unknown) =>
      new GenerationFailed({ message: `could not write the export: ${error instanceof Error ? error.message : String(error)}` })
    if (Option.isSome(input.output)) {
      const fs = yield* FileSystem.FileSystem
      yield* Stream.run(body, Sink.mapError(fs.sink(input.output.value), written))
    } else {
      yield* Stream.run(body, NodeSink.fromWritable({ evaluate: () => process.stdout, onError: written, endOnDone: false }))
    }
    yield* Console.error(progress.summary(Option.getOrElse(input.output, () => "stdout")))
  }).pipe(Effect.provide(FetchHttpClient.layer))

export const exportCommand = Command.make("export", options, exportEvents).pipe(
  Command.withDescription(
    "Export the event log through GET /events (auditors only) as NDJSON, one event a line in feed order, to stdout " +
      "or --output FILE: every event, or those in a time range (--since, --until) or a feed-position range " +
      "(--from-position, --to-position), narrowed by --type, --aggregate and --actor. Ends with a summary line on stderr."
  )
)
