// Converged quality of our CTGAN and TVAE against SDV's (issue 27): per dataset, model and seed, ours and SDV's
// trained one after the other on the same CSV, epochs and batch (interleaved, so a busy machine slows both), and both
// samples (as many rows as the table) scored by the same SDMetrics QualityReport in the reference environment
// (test/bench/reference/sdv_reference.py --quality-only): overall, Column Shapes, Column Pair Trends, each column's
// shape score, the weakest pairs, and each discrete column's category coverage (real categories kept, total
// variation distance of the shares, the sample's top category). Also seconds per epoch, ours/SDV.
//
// Samples are kept under BENCH_QUALITY_DIR (.cache/neural-quality) as <dataset>-<model>-<seed>-{ours,sdv}.csv, to be
// scored again or looked into; each result is printed as a JSON line as soon as it is known, the table at the end.
//
// Knobs: BENCH_QUALITY_DATASETS (telco_churn,credit_data), BENCH_QUALITY_MODELS (ctgan,tvae),
// BENCH_QUALITY_EPOCHS (30, so that a plain run stays short; 300, SDV's default, for converged quality),
// BENCH_QUALITY_SEEDS (1,2), BENCH_QUALITY_BATCH (500),
// BENCH_QUALITY_DIR, BENCH_QUALITY_THREADS (2: ours data parallel on two threads, SDV's torch on two; 1: both on
// one, which wastes less on a machine others load: torch's OpenMP threads spin while waiting for a core);
// BENCH_SDV_VENV as for the neural benchmark. To spread a long run, start one process per seed.
import { mkdir } from "node:fs/promises"
import { join, resolve } from "node:path"
import { repoRoot } from "../support/server.ts"
import { runOurs } from "./support/runNeural.ts"
import { type CategoryCoverage, runSdvReference, sdvQuality, type SdvQualityResult } from "./support/sdvReference.ts"

const list = (name: string, fallback: string) => (process.env[name] ?? fallback).split(",").map((item) => item.trim()).filter(Boolean)
const datasets = list("BENCH_QUALITY_DATASETS", "telco_churn,credit_data")
const models = list("BENCH_QUALITY_MODELS", "ctgan,tvae") as ReadonlyArray<"ctgan" | "tvae">
const epochs = Number(process.env.BENCH_QUALITY_EPOCHS ?? 30)
const seeds = list("BENCH_QUALITY_SEEDS", "1,2").map(Number)
const batchSize = Number(process.env.BENCH_QUALITY_BATCH ?? 500)
const threads = process.env.BENCH_QUALITY_THREADS === "1" ? 1 : 2
const keep = resolve(repoRoot, process.env.BENCH_QUALITY_DIR ?? ".cache/neural-quality")

/** Categories kept of all, summed over the discrete columns, and their mean TVD. */
const coverageSummary = (coverage: Readonly<Record<string, CategoryCoverage>>) => {
  const columns = Object.values(coverage)
  const kept = columns.reduce((sum, column) => sum + column.kept, 0)
  const total = columns.reduce((sum, column) => sum + column.real, 0)
  const meanTvd = columns.length === 0 ? 0 : columns.reduce((sum, column) => sum + column.tvd, 0) / columns.length
  return `${kept}/${total}, ${meanTvd.toFixed(3)}`
}

/** The discrete column whose TVD is furthest above SDV's, with both readings. */
const worstColumn = (ours: SdvQualityResult, sdv: SdvQualityResult) => {
  const [name, column] = Object.entries(ours.coverage).sort((a, b) => (b[1].tvd - (sdv.coverage[b[0]]?.tvd ?? 0)) - (a[1].tvd - (sdv.coverage[a[0]]?.tvd ?? 0)))[0] ?? []
  if (name === undefined || column === undefined) return ""
  const theirs = sdv.coverage[name]
  return `${name} ${column.kept}/${column.real} TVD ${column.tvd.toFixed(3)} (SDV ${theirs?.kept}/${theirs?.real} ${theirs?.tvd.toFixed(3)})`
}

const signed = (value: number) => `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(3)}`

const rows: Array<string> = []
await mkdir(keep, { recursive: true })
for (const seed of seeds) {
  for (const dataset of datasets) {
    const data = join(repoRoot, "test/fixtures/datasets", `${dataset}.csv`)
    for (const model of models) {
      const oursCsv = join(keep, `${dataset}-${model}-${seed}-ours.csv`)
      const sdvCsv = join(keep, `${dataset}-${model}-${seed}-sdv.csv`)
      console.error(`${new Date().toISOString()} ${dataset} ${model} seed ${seed}: ours, ${epochs} epochs`)
      const ours = await runOurs({ data, generator: model, epochs, batchSize, seed, targetEpsilon: null, sampleCsv: oursCsv, threads })
      console.error(`${new Date().toISOString()} ${dataset} ${model} seed ${seed}: SDV, ${epochs} epochs`)
      const sdv = await runSdvReference({ data, model, epochs, batchSize, seed, threads, sampleCsv: sdvCsv })
      // Both samples read back from CSV and scored by the same call.
      const oursScore = await sdvQuality(data, oursCsv)
      const sdvScore = await sdvQuality(data, sdvCsv)
      const { epochSeconds: _epochs, epochCpuSeconds: _cpu, ...sdvRun } = sdv
      console.log(JSON.stringify({ bench: "neural-quality", dataset, model, seed, epochs, ours, oursScore, sdv: sdvRun, sdvScore }))
      rows.push(
        `| ${dataset} | ${model} | ${seed} | ${oursScore.qualityScore.toFixed(3)} | ${sdvScore.qualityScore.toFixed(3)} | ` +
          `${signed(oursScore.qualityScore - sdvScore.qualityScore)} | ${oursScore.columnShapes.toFixed(3)} / ${sdvScore.columnShapes.toFixed(3)} | ` +
          `${oursScore.columnPairTrends.toFixed(3)} / ${sdvScore.columnPairTrends.toFixed(3)} | ${coverageSummary(oursScore.coverage)} | ` +
          `${coverageSummary(sdvScore.coverage)} | ${worstColumn(oursScore, sdvScore)} | ${ours.secondsPerEpoch.toFixed(2)} / ${sdv.secondsPerEpoch.toFixed(2)} | ` +
          `${ours.loadAverage.toFixed(1)}, ${sdv.loadAverage.map((load) => load.toFixed(1)).join("–")} |`
      )
    }
  }
}

console.error(`\n${epochs} epochs, batch ${batchSize}, ${threads} thread(s) each; both samples scored by SDMetrics' QualityReport; coverage: categories kept of all over the discrete columns, mean TVD of their shares\n`)
console.error("| dataset | model | seed | quality ours | SDV | Δ | shapes ours / SDV | pairs ours / SDV | coverage ours | coverage SDV | worst column vs SDV | s/epoch ours / SDV | load (ours; SDV before–after) |")
console.error("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for (const row of rows) console.error(row)
process.exit(0)
