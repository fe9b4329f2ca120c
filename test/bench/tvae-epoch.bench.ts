// TVAE (libs/synth/src/neural/tvae) on diamonds (53,940 rows, 10 columns): seconds per training epoch at SDV's
// defaults (batch 500, so 108 steps an epoch; embedding 128, (128, 128) encoder and decoder) on the tfjs wasm
// backend, the first epoch apart (it includes wasm warm-up), the tensor count after each epoch (flat = no leak),
// and the time to sample as many rows as the input. Each epoch reports its CPU time beside its wall time: on a shared
// machine the wall time includes waiting for a core, the CPU time does not. The transformer's fit is timed apart, as SDV's is not part of its
// epochs either. Reading the CSV is not timed. One JSON object per measurement on stdout, a summary on stderr.
//
// Knobs: BENCH_TVAE_EPOCHS (3): epochs to train; BENCH_TVAE_BATCH (500): batch size; BENCH_TVAE_THREADS (1; 2 trains
// data parallel on two threads).
import * as tf from "@tensorflow/tfjs"
import { fitTableTransformer, trainModel } from "@synth/synth"
import { Result } from "effect"
import { loadCsv, timed } from "./support/measure.ts"

const epochs = Number(process.env.BENCH_TVAE_EPOCHS ?? 3)
const batchSize = Number(process.env.BENCH_TVAE_BATCH ?? 500)
const threads = process.env.BENCH_TVAE_THREADS === "2" ? 2 : 1

const table = await loadCsv("test/fixtures/datasets/diamonds.csv")
const transformerFit = timed(() => fitTableTransformer(table, { seed: 1 }))
const steps = Math.ceil(table.rowCount / batchSize)

const epochMs: Array<number> = []
const epochCpuMs: Array<number> = []
let last = 0
let lastCpu = process.cpuUsage()
const started = performance.now()
// Through trainModel, as a generation job trains it (it loads libs/synth/src/neural/tvae on first use).
const trained = await trainModel("tvae", table, {
  seed: 1,
  epochs,
  batchSize,
  targetEpsilon: null,
  threads,
  onFitProgress: (fraction) => {
    // The first step marks the end of the set-up (backend start, transformer fit, weights).
    if (last === 0 && fraction > 0) {
      last = performance.now()
      lastCpu = process.cpuUsage()
    }
  },
  onEpoch: (epoch, losses) => {
    const loss = losses.loss ?? Number.NaN
    const now = performance.now()
    const ms = Math.round(now - (epochMs.length === 0 ? started : last))
    const cpu = process.cpuUsage(epochMs.length === 0 ? undefined : lastCpu)
    const cpuMs = Math.round((cpu.user + cpu.system) / 1000)
    last = now
    lastCpu = process.cpuUsage()
    epochMs.push(ms)
    epochCpuMs.push(cpuMs)
    const row = { bench: "tvae-epoch", dataset: "diamonds", epoch, ms, cpuMs, stepMs: +(ms / steps).toFixed(1), loss: +loss.toFixed(4), tensors: tf.memory().numTensors }
    console.log(JSON.stringify(row))
  }
})
const model = Result.getOrThrow(trained)
const sampling = timed(() => model.sample(table.rowCount, 2))
/** The mean over the epochs after the first (the first includes set-up), or the first when there is only one. */
const steadyMean = (values: ReadonlyArray<number>) => {
  const steady = values.length > 1 ? values.slice(1) : values
  return steady.reduce((sum, value) => sum + value, 0) / steady.length
}
const steadyMs = steadyMean(epochMs)
const steadyCpuMs = steadyMean(epochCpuMs)
const summary = {
  bench: "tvae-epoch-summary",
  dataset: "diamonds",
  rows: table.rowCount,
  width: transformerFit.result.width,
  batchSize,
  epochs,
  transformerFitMs: transformerFit.ms,
  firstEpochS: +(epochMs[0]! / 1000).toFixed(2),
  secondsPerEpoch: +(steadyMs / 1000).toFixed(2),
  cpuSecondsPerEpoch: +(steadyCpuMs / 1000).toFixed(2),
  msPerStep: +(steadyMs / steps).toFixed(1),
  sampleMs: sampling.ms,
  backend: tf.getBackend()
}
console.log(JSON.stringify(summary))
console.error(
  `TVAE on diamonds (${summary.rows} rows, encoded width ${summary.width}, batch ${batchSize}, ${steps} steps/epoch, ${summary.backend}): ` +
    `${summary.secondsPerEpoch} s/epoch after the first (CPU ${summary.cpuSecondsPerEpoch} s; ${summary.msPerStep} ms/step; first epoch ${summary.firstEpochS} s incl. set-up), ` +
    `sampling ${summary.rows} rows ${summary.sampleMs} ms`
)
