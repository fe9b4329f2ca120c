import { Cause, Exit, Runtime } from "effect"

/**
 * How a process ends (`NodeRuntime.runMain(program, { teardown })`): as it did under Effect 3, a run that was only
 * interrupted (SIGINT, SIGTERM: a service stopped, `synth events tail` ended by the user) exits 0; a failure exits 1.
 * Effect 4's default teardown answers 130 for an interruption.
 */
export const teardown: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)
