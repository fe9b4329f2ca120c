// DP-CTGAN's step on tfjs (before) and on the direct step (after), beside the non-private direct CTGAN step, side by
// side in one run on telco_churn and credit_data (batch 500, SDV's network sizes): the median wall and CPU time of a
// step (after three warm-up steps; on a shared machine the CPU time is the steadier of the two) and, for DP-CTGAN, the quality score of a table-sized sample after a fixed number
// of epochs at a fixed ε, per seed. Each training runs in a process of its own (support/dpStepRun.ts) with
// SYNTH_CTGAN_STEP set for it, the variants of a dataset and seed one after another so that they share the
// machine's load. One JSON object per training on stdout, a markdown table on stderr.
//
// Knobs: BENCH_DP_DATASETS (telco_churn,credit_data), BENCH_DP_SEEDS (1,2), BENCH_DP_EPOCHS (10: DP-CTGAN's
// epochs, ⌊epochs / q⌋ steps), BENCH_CTGAN_EPOCHS (3: the non-private training, timed only), BENCH_DP_EPSILON (5),
// BENCH_DP_BATCH (500).
import { execFileSync } from "node:child_process"
import { loadavg } from "node:os"
import type { DpStepRun } from "./support/dpStepRun.ts"

const datasets = (process.env.BENCH_DP_DATASETS ?? "telco_churn,credit_data").split(",")
const seeds = (process.env.BENCH_DP_SEEDS ?? "1,2").split(",").map(Number)
const dpEpochs = Number(process.env.BENCH_DP_EPOCHS ?? 10)
const ctganEpochs = Number(process.env.BENCH_CTGAN_EPOCHS ?? 3)
const targetEpsilon = Number(process.env.BENCH_DP_EPSILON ?? 5)
const batchSize = Number(process.env.BENCH_DP_BATCH ?? 500)

const variants = [
  { name: "ctgan direct", step: "direct", dp: false },
  { name: "dp-ctgan tfjs (before)", step: "tfjs", dp: true },
  { name: "dp-ctgan direct (after)", step: "direct", dp: true }
] as const

interface Result {
  readonly dataset: string
  readonly seed: number
  readonly variant: string
  readonly steps: number
  readonly medianWallMs: number
  readonly medianCpuMs: number
  readonly fitSeconds: number
  readonly qualityScore: number | null
  readonly epsilonSpent: number | null
  readonly load: number
}
const results: Array<Result> = []

for (const dataset of datasets) {
  for (const seed of seeds) {
    for (const variant of variants) {
      const run: DpStepRun = {
        data: `test/fixtures/datasets/${dataset}.csv`,
        epochs: variant.dp ? dpEpochs : ctganEpochs,
        batchSize,
        seed,
        targetEpsilon: variant.dp ? targetEpsilon : null
      }
      const output = execFileSync(process.execPath, ["test/bench/support/dpStepRun.ts", JSON.stringify(run)], {
        env: { ...process.env, SYNTH_CTGAN_STEP: variant.step },
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"]
      })
      const result = { dataset, seed, variant: variant.name, ...JSON.parse(output.trim().split("\n").at(-1)!), load: +loadavg()[0]!.toFixed(1) }
      results.push(result)
      console.log(JSON.stringify({ bench: "dp-step", ...result }))
    }
  }
}

console.error(`batch ${batchSize}; DP-CTGAN ${dpEpochs} epochs at ε = ${targetEpsilon}; CTGAN ${ctganEpochs} epochs; medians after 3 warm-up steps`)
console.error("| dataset | seed | variant | steps | wall ms/step | CPU ms/step | × CTGAN direct (CPU) | × (wall) | fit s | quality | ε spent | load |")
console.error("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for (const row of results) {
  const base = results.find((other) => other.dataset === row.dataset && other.seed === row.seed && other.variant === "ctgan direct")!
  const quality = row.epsilonSpent === null ? "" : row.qualityScore?.toFixed(3) ?? "none"
  console.error(
    `| ${row.dataset} | ${row.seed} | ${row.variant} | ${row.steps} | ${row.medianWallMs} | ${row.medianCpuMs} | ` +
      `${(row.medianCpuMs / base.medianCpuMs).toFixed(2)} | ${(row.medianWallMs / base.medianWallMs).toFixed(2)} | ${row.fitSeconds} | ${quality} | ${row.epsilonSpent?.toFixed(3) ?? ""} | ${row.load} |`
  )
}
