import { Config, Schema } from "effect"

/** The evaluation service's settings; every one has a default. */
export const EvaluationConfig = Config.all({
  /**
   * Evaluations this process computes at once, each in its own worker thread. One by default: a run is tens of
   * seconds of CPU, and in the embedded runtime it shares the machine with the gateway and generation.
   */
  concurrency: Config.schema(Schema.Int.check(Schema.makeFilter((runs: number) => runs >= 1, { message: "EVALUATION_CONCURRENCY is at least 1" })), "EVALUATION_CONCURRENCY").pipe(
    Config.withDefault(1)
  )
})
export type EvaluationConfig = Config.Success<typeof EvaluationConfig>
