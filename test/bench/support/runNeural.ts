// Runs test/bench/support/neuralRun.ts (one training of our CTGAN, TVAE or DP-CTGAN) in a process of its own, so that
// its peak memory is its own, and resolves with the JSON line it prints.
import { spawn } from "node:child_process"
import { repoRoot } from "../../support/server.ts"
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

export const runOurs = (config: NeuralRun): Promise<OursResult> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["test/bench/support/neuralRun.ts", JSON.stringify(config)], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "inherit"]
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("error", reject)
    child.on("close", (code) => {
      const line = output.split("\n").find((text) => text.startsWith("{"))
      if (code !== 0 || line === undefined) reject(new Error(`neuralRun exited ${code}: ${output}`))
      else resolve(JSON.parse(line) as OursResult)
    })
  })
