import { Command, Options } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { apiVersion } from "@synth/contracts"
import { Effect, Layer } from "effect"
import { StandaloneLive } from "./layers.ts"
import { replay } from "./replay.ts"

const serve = Command.make("serve", {}, () => Layer.launch(StandaloneLive)).pipe(
  Command.withDescription("Run the service on its embedded default (PORT, HOST, DATA_DIR).")
)

const replayCommand = Command.make(
  "replay",
  {
    projections: Options.text("projection").pipe(
      Options.repeated,
      Options.withDescription("Rebuild only this projection (repeatable); default: drop and rebuild every read model")
    )
  },
  ({ projections }) => replay(projections)
).pipe(Command.withDescription("Rebuild read models from the event log. Stop the server first."))

const synth = Command.make("synth").pipe(Command.withSubcommands([serve, replayCommand]))

const run = Command.run(synth, { name: "synth", version: apiVersion })

run(process.argv).pipe(Effect.provide(NodeContext.layer), NodeRuntime.runMain)

