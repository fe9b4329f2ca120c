import { CliError, Command, Flag } from "effect/cli"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { apiVersion } from "@synth/contracts"
import { layerLogging, teardown } from "@synth/observability"
import { Console, DateTime, Effect, Layer } from "effect"
import { downloadCommand } from "./download/command.ts"
import { eventsCommand } from "./events/command.ts"
import { generateCommand } from "./generate/command.ts"
import { uploadCommand } from "./upload/command.ts"
import { UploadUsageError } from "./upload/errors.ts"

// The runtime's modules load only for the commands that run it: `synth upload` is a client and starts in a fraction
// of the time without them, as does `synth generate`.
const serve = Command.make("serve", {}, () =>
  Effect.flatMap(Effect.promise(() => import("./layers.ts")), ({ StandaloneProcessLive }) =>
    Layer.launch(StandaloneProcessLive.pipe(Layer.provide(layerLogging("standalone")))))
).pipe(
  Command.withDescription("Run the service on its embedded default (PORT, HOST, DATA_DIR; LOG_FORMAT, LOG_LEVEL).")
)

const replayCommand = Command.make(
  "replay",
  {
    projections: Flag.String("projection").pipe(
      Flag.atLeast(0),
      Flag.withDescription("Rebuild only this projection (repeatable); default: drop and rebuild every read model")
    ),
    from: Flag.String("from").pipe(
      Flag.mapTryCatch(
        (text) => DateTime.makeUnsafe(text),
        () => "--from takes an ISO 8601 time, e.g. 2026-11-23T05:00:00Z"
      ),
      Flag.optional,
      Flag.withDescription(
        "An ISO 8601 time: keep the read models' rows and re-apply only the events that occurred at or after it"
      )
    )
  },
  ({ from, projections }) =>
    Effect.flatMap(Effect.promise(() => import("./replay.ts")), ({ replay }) => replay(projections, from))
).pipe(
  Command.withDescription(
    "Rebuild read models from the event log (embedded: stop the server first; with KAFKA_BROKERS and DATABASE_URL " +
      "it runs beside the gateways)."
  )
)

const synth = Command.make("synth").pipe(
  Command.withSubcommands([serve, replayCommand, uploadCommand, downloadCommand, generateCommand, eventsCommand])
)

const run = Command.runWith(synth, { version: apiVersion })

/** Expected failures (a held data directory, a bad setting) end with one readable line and exit code 1. */
const reportFailure = (error: unknown) =>
  Effect.andThen(
    Console.error(`synth: ${describeFailure(error)}`),
    Effect.sync(() => {
      process.exitCode = 1
    })
  )

const describeFailure = (error: unknown): string => {
  if (typeof error === "object" && error !== null) {
    if ("reason" in error && typeof error.reason === "string") return error.reason
    if ("message" in error && typeof error.message === "string" && error.message !== "") return error.message
  }
  return String(error)
}

run(process.argv.slice(2)).pipe(
  // The CLI module has already printed what was wrong with the command line.
  Effect.catchIf(CliError.isCliError, () => Effect.sync(() => void (process.exitCode = 2))),
  // What the options cannot express (which credentials go together) is a usage error too.
  Effect.catchIf(
    (error): error is UploadUsageError => error instanceof UploadUsageError,
    (error) => Effect.andThen(Console.error(`synth: ${error.message}`), Effect.sync(() => void (process.exitCode = 2)))
  ),
  Effect.catch(reportFailure),
  Effect.provide(NodeServices.layer),
  NodeRuntime.runMain({ teardown })
)

