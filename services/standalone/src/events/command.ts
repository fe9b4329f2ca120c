import { Command } from "effect/cli"
import { exportCommand } from "./export.ts"
import { tailCommand } from "./tail.ts"
import { verifyCommand } from "./verify.ts"

/** `synth events …`: the event log for platform teams and auditors. */
export const eventsCommand = Command.make("events").pipe(
  Command.withDescription("Inspect, export and verify the event log."),
  Command.withSubcommands([tailCommand, exportCommand, verifyCommand])
)
