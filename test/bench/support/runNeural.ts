// Runs test/bench/support/neuralRun.ts (one training of our CTGAN, TVAE or DP-CTGAN) in a process of its own, so that
// its peak memory is its own, and resolves with the JSON line it prints.
import { runJsonChild } from "./runJsonChild.ts"
import type { NeuralRun } from "./neuralRun.ts"

export interface OursResult {
  readonly model: string
  readonly targetEpsilon: number | null
  readonly privacy: { readonly epsilonSpent: number; readonly stoppedEarly: boolean } | null
  readonly fitSeconds: number
  readonly preprocessSeconds: number
  readonly secondsPerEpoch: number
  readonly epochsRun: number
  readonly qualityScore: number | null
  readonly peakRssMiB: number
  readonly loadAverage: number
}

export const runOurs = (config: NeuralRun): Promise<OursResult> => runJsonChild("test/bench/support/neuralRun.ts", config)
