// Sampling time, ours beside SDV's (issue 27: "sampling ≤ SDV's time for every model"): per dataset and model, our
// model and SDV's are each fitted in a process of their own (CTGAN and TVAE for a few epochs: sampling time does not
// depend on them), then timed from the fitted model to a table in memory, for as many rows as the real table and for
// a larger count, a few rounds each (medians). Ours also to the CSV the user downloads: the protected sample as the
// generation worker draws it (protections at their defaults), Arrow IPC, CSV in the source's form; SDV has no such
// step, so that column is ours alone. Models: CTGAN, TVAE, the Gaussian copula (SDV's GaussianCopulaSynthesizer) and
// DP-CTGAN (ours only; SDV has none). Ours and SDV's run one after the other for each pair, so load from other work
// hits both; with BENCH_SAMPLING_BEFORE (a checkout, e.g. an untouched tree of main) that tree's code runs first
// through the same script, so before, after and SDV alternate.
//
// Knobs: BENCH_SAMPLING_DATASETS (telco_churn,credit_data), BENCH_SAMPLING_MODELS (ctgan,tvae,gaussian_copula,
// dp-ctgan), BENCH_SAMPLING_ROWS (50000: the larger count; the table's own row count is always measured),
// BENCH_SAMPLING_ROUNDS (3), BENCH_SAMPLING_EPOCHS (2), BENCH_SAMPLING_BEFORE (unset), BENCH_SDV (1; 0: ours only).
import { readFileSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import { repoRoot } from "../support/server.ts"
import { runJsonChild } from "./support/runJsonChild.ts"
import type { SamplingRun } from "./support/samplingRun.ts"
import { runSdvSampling, type SdvSamplingResult } from "./support/sdvReference.ts"

const list = (name: string, fallback: string) => (process.env[name] ?? fallback).split(",").map((item) => item.trim()).filter(Boolean)
const datasets = list("BENCH_SAMPLING_DATASETS", "telco_churn,credit_data")
const models = list("BENCH_SAMPLING_MODELS", "ctgan,tvae,gaussian_copula,dp-ctgan") as Array<SamplingRun["generator"]>
const largeRows = Number(process.env.BENCH_SAMPLING_ROWS ?? 50_000)
const rounds = Number(process.env.BENCH_SAMPLING_ROUNDS ?? 3)
const epochs = Number(process.env.BENCH_SAMPLING_EPOCHS ?? 2)
const before = process.env.BENCH_SAMPLING_BEFORE ?? null
const withSdv = process.env.BENCH_SDV !== "0"
const seed = 7
const batchSize = 500

interface OursSample {
  readonly rows: number
  readonly seconds: number
  readonly cpuSeconds: number
  readonly protectedSeconds: number
  readonly fileSeconds: number
  readonly loadAverage: number
}

const runOurs = (config: SamplingRun) =>
  runJsonChild<{ readonly samples: ReadonlyArray<OursSample> }>("test/bench/support/samplingRun.ts", config)

const sdvModel = (model: SamplingRun["generator"]) => (model === "gaussian_copula" ? "copula" : model === "dp-ctgan" ? null : model)
const fixed = (value: number | undefined, digits = 3) => (value === undefined ? "" : value.toFixed(digits))
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b === 0 ? "" : (a / b).toFixed(2))

const rows: Array<string> = []
for (const dataset of datasets) {
  const data = join(repoRoot, "test/fixtures/datasets", `${dataset}.csv`)
  // The fixtures have no line breaks inside values: a row per line after the header.
  const tableRows = readFileSync(data, "utf8").trimEnd().split("\n").length - 1
  const counts = [tableRows, largeRows]
  for (const model of models) {
    const config = (tree: string): SamplingRun => ({
      tree,
      data,
      generator: model,
      epochs,
      batchSize,
      seed,
      targetEpsilon: model === "dp-ctgan" ? 5 : null,
      rows: counts,
      rounds
    })
    let previous: { readonly samples: ReadonlyArray<OursSample> } | null = null
    if (before !== null) {
      console.error(`${dataset} ${model}: before (${before})`)
      previous = await runOurs(config(before))
      console.log(JSON.stringify({ ...previous, bench: "sampling-before", dataset }))
    }
    console.error(`${dataset} ${model}: ours`)
    const ours = await runOurs(config(repoRoot))
    console.log(JSON.stringify({ ...ours, bench: "sampling-ours", dataset }))
    const reference = sdvModel(model)
    let sdv: SdvSamplingResult | null = null
    if (withSdv && reference !== null) {
      console.error(`${dataset} ${model}: SDV`)
      sdv = await runSdvSampling({ data, model: reference, epochs, batchSize, seed, rows: counts, rounds })
      console.log(JSON.stringify(sdv))
    }
    ours.samples.forEach((sample, i) => {
      const theirs = sdv?.samples[i]
      const old = previous?.samples[i]
      rows.push(
        `| ${dataset} | ${model} | ${sample.rows} | ${fixed(old?.seconds)} | ${fixed(sample.seconds)} | ${fixed(theirs?.seconds)} | ` +
          `${ratio(sample.seconds, theirs?.seconds)} | ${fixed(old?.cpuSeconds)} | ${fixed(sample.cpuSeconds)} | ${fixed(theirs?.cpuSeconds)} | ` +
          `${fixed(old?.fileSeconds)} | ${fixed(sample.fileSeconds)} | ${sample.loadAverage.toFixed(1)} |`
      )
    })
  }
}

console.error(`\nsampling from a fitted model, median of ${rounds} rounds; neural models fitted for ${epochs} epochs, batch ${batchSize}; load average now ${loadavg()[0]!.toFixed(1)}\n`)
console.error("| dataset | model | rows | before s | ours s | SDV s | ours/SDV | before CPU s | ours CPU s | SDV CPU s | before to CSV s | ours to CSV s | load |")
console.error("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for (const row of rows) console.error(row)
