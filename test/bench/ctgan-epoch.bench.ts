// CTGAN and DP-CTGAN training speed on diamonds (53,940 rows, 10 columns) at SDV's defaults (batch 500, pac 10,
// generator and discriminator (256, 256), embedding 128) on the tfjs wasm backend: seconds per epoch (107 steps),
// milliseconds per step (wall, and CPU: the machine is shared, so wall time includes waiting for a core), the
// tensors alive after each epoch (flat when nothing leaks) and the resident memory. The first epoch includes the
// backend start and the transformer's fit (Bayesian mixtures on 10,000 values per numeric column), also timed
// apart; sampling as many rows as the table has is timed after each training. DP-CTGAN runs at pac 1 with
// per-sample clipping (ε = BENCH_CTGAN_EPSILON).
// One JSON object per measurement on stdout, a markdown table on stderr.
//
// Knobs: BENCH_CTGAN_EPOCHS (2), BENCH_CTGAN_DP_EPOCHS (1, 0 skips DP-CTGAN), BENCH_CTGAN_EPSILON (5),
// BENCH_CTGAN_BATCH (500), BENCH_CTGAN_THREADS (1; 2 trains data parallel on two threads, DP-CTGAN stays on one).
import * as tf from "@tensorflow/tfjs"
import { fitTableTransformer } from "@synth/synth"
// A subpath of its own: the neural models load tfjs, so only training code imports them.
import { fitCtgan } from "@synth/synth/neural/ctgan"
import { loadCsv, mib, statusBytes, timed } from "./support/measure.ts"

const epochs = Number(process.env.BENCH_CTGAN_EPOCHS ?? 2)
const dpEpochs = Number(process.env.BENCH_CTGAN_DP_EPOCHS ?? 1)
const targetEpsilon = Number(process.env.BENCH_CTGAN_EPSILON ?? 5)
const batchSize = Number(process.env.BENCH_CTGAN_BATCH ?? 500)
const threads = process.env.BENCH_CTGAN_THREADS === "2" ? 2 : 1

interface Row {
  readonly bench: string
  readonly epoch: number
  readonly steps: number
  readonly seconds: number
  readonly cpuSeconds: number
  readonly msPerStep: number
  readonly cpuMsPerStep: number
  readonly tensors: number
  readonly rssMiB: number
}
const results: Array<Row> = []

const table = await loadCsv("test/fixtures/datasets/diamonds.csv")
const transformerMs = timed(() => fitTableTransformer(table, { seed: 1 })).ms
console.log(JSON.stringify({ bench: "ctgan-transformer-fit", rows: table.rowCount, ms: transformerMs }))

const train = async (bench: string, epochCount: number, dp: boolean) => {
  let steps = 0
  let started = performance.now()
  let cpuStarted = process.cpuUsage()
  const model = await fitCtgan(table, {
    seed: 1,
    epochs: epochCount,
    batchSize,
    threads,
    ...(dp ? { dp: { targetEpsilon } } : {}),
    onProgress: () => steps++,
    onEpoch: (epoch) => {
      const seconds = (performance.now() - started) / 1000
      const cpu = process.cpuUsage(cpuStarted)
      const cpuSeconds = (cpu.user + cpu.system) / 1e6
      const row = {
        bench,
        epoch,
        steps,
        seconds: +seconds.toFixed(2),
        cpuSeconds: +cpuSeconds.toFixed(2),
        msPerStep: Math.round((seconds * 1000) / steps),
        cpuMsPerStep: Math.round((cpuSeconds * 1000) / steps),
        tensors: tf.memory().numTensors,
        rssMiB: mib(statusBytes("VmRSS"))
      }
      results.push(row)
      console.log(JSON.stringify(row))
      steps = 0
      started = performance.now()
      cpuStarted = process.cpuUsage()
    }
  })
  if (model.privacy !== null) console.log(JSON.stringify({ bench: `${bench}-privacy`, ...model.privacy }))
  const sampling = timed(() => model.sample(table.rowCount, 2))
  console.log(JSON.stringify({ bench: `${bench}-sample`, rows: sampling.result.rowCount, ms: sampling.ms }))
  model.dispose()
}

await train("ctgan-epoch", epochs, false)
if (dpEpochs > 0) await train("dp-ctgan-epoch", dpEpochs, true)

console.error(`diamonds: ${table.rowCount} rows; transformer fit ${transformerMs} ms (inside epoch 1); batch ${batchSize}`)
console.error("| model | epoch | steps | wall s | CPU s | wall ms per step | CPU ms per step | tensors after | RSS (MiB) |")
console.error("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for (const row of results) {
  console.error(
    `| ${row.bench} | ${row.epoch} | ${row.steps} | ${row.seconds} | ${row.cpuSeconds} | ${row.msPerStep} | ${row.cpuMsPerStep} | ${row.tensors} | ${row.rssMiB} |`
  )
}
