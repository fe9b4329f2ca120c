import { Config } from "effect"

/** The evaluation service's settings; every one has a default. */
export const EvaluationConfig = Config.all({
  /**
   * Evaluations this process computes at once, each in its own worker thread. One by default: a run is tens of
   * seconds of CPU, and in the embedded runtime it shares the machine with the gateway and generation.
   */
  concurrency: Config.integer("EVALUATION_CONCURRENCY").pipe(
    Config.validate({ message: "EVALUATION_CONCURRENCY is at least 1", validation: (runs) => runs >= 1 }),
    Config.withDefault(1)
  )
})
export type EvaluationConfig = Config.Config.Success<typeof EvaluationConfig>
