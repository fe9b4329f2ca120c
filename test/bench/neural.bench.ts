// Our CTGAN, TVAE and DP-CTGAN side by side with SDV's CTGAN and TVAE (PyTorch on CPU), same data, same epochs, same
// batch size, same machine, in the same run: seconds per epoch, total fit (preprocessing included), peak RSS and the
// quality score. Each training runs in a process of its own (test/bench/support/neuralRun.ts for ours,
// test/bench/reference/sdv_reference.py for SDV's), one after another, so a peak belongs to one training and the
// two never share the cores. Our samples are also scored by SDMetrics itself in the reference environment, so both
// quality columns come from the same scorer, and both against the original file as uploaded: ours written in the
// source's form as the service writes its outputs, so a lost boolean spelling or date layout costs quality here too.
//
// Knobs: BENCH_NEURAL_DATASETS (telco_churn,credit_data,diamonds), BENCH_NEURAL_MODELS (ctgan,tvae,dp-ctgan),
// BENCH_NEURAL_EPOCHS (10), BENCH_NEURAL_BATCH (500), BENCH_NEURAL_EPSILONS (1,5,10), BENCH_NEURAL_SEED (7),
// BENCH_SDV (1; 0 skips SDV: ours only, e.g. where the 6 GB reference environment cannot be installed),
// BENCH_NEURAL_THREADS (2: our CTGAN and TVAE train data parallel on two threads, as the generation service does on
// two cores; 1 keeps them on one; DP-CTGAN always trains on one). SDV's torch uses two threads.
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { repoRoot } from "../support/server.ts"
import type { NeuralRun } from "./support/neuralRun.ts"
import { runOurs } from "./support/runNeural.ts"
import { runSdvReference, type SdvRunResult, sdvQuality } from "./support/sdvReference.ts"

const list = (name: string, fallback: string) => (process.env[name] ?? fallback).split(",").map((item) => item.trim()).filter(Boolean)
const datasets = list("BENCH_NEURAL_DATASETS", "telco_churn,credit_data,diamonds")
const models = list("BENCH_NEURAL_MODELS", "ctgan,tvae,dp-ctgan")
const epsilons = list("BENCH_NEURAL_EPSILONS", "1,5,10").map(Number)
const epochs = Number(process.env.BENCH_NEURAL_EPOCHS ?? 10)
const batchSize = Number(process.env.BENCH_NEURAL_BATCH ?? 500)
const seed = Number(process.env.BENCH_NEURAL_SEED ?? 7)
const withSdv = process.env.BENCH_SDV !== "0"
const threads = process.env.BENCH_NEURAL_THREADS === "1" ? 1 : 2

const rows: Array<string> = []
const work = await mkdtemp(join(tmpdir(), "synth-bench-neural-"))
try {
  for (const dataset of datasets) {
    const data = join(repoRoot, "test/fixtures/datasets", `${dataset}.csv`)
    for (const model of models) {
      const runs: ReadonlyArray<number | null> = model === "dp-ctgan" ? epsilons : [null]
      for (const targetEpsilon of runs) {
        const sampleCsv = join(work, `${dataset}-${model}-${targetEpsilon ?? "x"}.csv`)
        const generator = model as NeuralRun["generator"]
        console.error(`${dataset} ${model}${targetEpsilon === null ? "" : ` ε=${targetEpsilon}`}: ours, ${epochs} epochs`)
        const ours = await runOurs({ data, generator, epochs, batchSize, seed, targetEpsilon, sampleCsv, threads })
        // Against the user's file, as SDV's own sample is.
        const sdmetrics = withSdv ? await sdvQuality(data, sampleCsv) : null
        console.log(JSON.stringify({ bench: "neural", dataset, ...ours, sdmetricsQuality: sdmetrics?.qualityScore ?? null }))
        // SDV has no DP-CTGAN: dp runs are compared with SDV's CTGAN (the same network without the privacy).
        let sdv: SdvRunResult | null = null
        if (withSdv && (model === "ctgan" || model === "tvae")) {
          console.error(`${dataset} ${model}: SDV, ${epochs} epochs`)
          sdv = await runSdvReference({ data, model, epochs, batchSize, seed })
          console.log(JSON.stringify(sdv))
        }
        const ratio = (a: number, b: number | undefined) => (b === undefined || b === 0 ? "" : (a / b).toFixed(2))
        rows.push(
          `| ${dataset} | ${model}${targetEpsilon === null ? "" : ` ε=${targetEpsilon}`} | ${ours.secondsPerEpoch.toFixed(2)} | ` +
            `${sdv?.secondsPerEpoch.toFixed(2) ?? ""} | ${ratio(ours.secondsPerEpoch, sdv?.secondsPerEpoch)} | ` +
            `${ours.fitSeconds.toFixed(1)} | ${sdv?.fitSeconds.toFixed(1) ?? ""} | ${ratio(ours.fitSeconds, sdv?.fitSeconds)} | ` +
            `${ours.peakRssMiB.toFixed(0)} | ${sdv?.peakRssMiB.toFixed(0) ?? ""} | ` +
            `${sdmetrics?.qualityScore.toFixed(3) ?? ours.qualityScore?.toFixed(3) ?? ""} | ${sdv?.qualityScore.toFixed(3) ?? ""} | ` +
            `${ours.privacy === null ? "" : `${ours.privacy.epsilonSpent.toFixed(3)}${ours.privacy.stoppedEarly ? ` (stopped at epoch ${ours.epochsRun})` : ""}`} |`
        )
      }
    }
  }
} finally {
  await rm(work, { recursive: true, force: true })
}

console.error(`\n${epochs} epochs, batch ${batchSize}, seed ${seed}, ours on ${threads} thread(s); quality by SDMetrics' QualityReport${withSdv ? "" : " (ours: our SDMetrics-equivalent)"}\n`)
console.error("| dataset | model | s/epoch ours | s/epoch SDV | ratio | fit s ours | fit s SDV | ratio | peak RSS MiB ours | SDV | quality ours | SDV | ε spent |")
console.error("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for (const row of rows) console.error(row)
