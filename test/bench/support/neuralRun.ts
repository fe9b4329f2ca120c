// One training of one of our neural generators, in a process of its own so that its peak memory is its own:
// `node test/bench/support/neuralRun.ts '<json NeuralRun>'` prints one JSON line (NeuralRunResult).
// The benchmark (test/bench/neural.bench.ts) runs it next to SDV's reference in the same run.
import { tableToCsv } from "@synth/tabular"
import { type GeneratorKind, qualityReport, synthTableToIpc, trainModel } from "@synth/synth"
import { Effect, Result, Stream } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { loadCsv, median, mib, statusBytes } from "./measure.ts"

export interface NeuralRun {
  readonly data: string
  readonly generator: Extract<GeneratorKind, "ctgan" | "tvae" | "dp-ctgan">
  readonly epochs: number
  readonly batchSize: number
  readonly seed: number
  readonly targetEpsilon: number | null
  /**
   * Where to write the sample as CSV (for SDMetrics' score of it against the original file); none when null. It is
   * written in the source's form, as the service writes a synthetic output: the file's boolean spellings, date
   * layouts and number forms, so a form the output loses shows up in the score as the quality loss it is.
   */
  readonly sampleCsv: string | null
  /** 2: CTGAN and TVAE train data parallel (DP-CTGAN always on one thread). */
  readonly threads: 1 | 2
}

const sourceFormCsv = async (table: Parameters<typeof synthTableToIpc>[0]) => {
  const chunks = await Effect.runPromise(Stream.runCollect(tableToCsv(Stream.make(synthTableToIpc(table)), "source")))
  return Buffer.concat(Array.from(chunks))
}

const run = async (config: NeuralRun) => {
  const table = await loadCsv(config.data)
  const rssBeforeFit = statusBytes("VmRSS")
  const epochEnds: Array<number> = []
  const losses: Array<Readonly<Record<string, number>>> = []
  const started = performance.now()
  const trained = await trainModel(config.generator, table, {
    seed: config.seed,
    epochs: config.epochs,
    batchSize: config.batchSize,
    targetEpsilon: config.targetEpsilon,
    threads: config.threads,
    onEpoch: (_epoch, epochLosses) => {
      epochEnds.push(performance.now())
      losses.push(epochLosses)
    }
  })
  const fitSeconds = (performance.now() - started) / 1000
  if (Result.isFailure(trained)) throw new Error(`training refused: ${JSON.stringify(trained.failure)}`)
  const model = trained.success
  // The first epoch's end also includes the preprocessing (transformer fit and encoding); later epochs are pure.
  const epochSeconds = epochEnds.slice(1).map((end, index) => (end - epochEnds[index]!) / 1000)
  const secondsPerEpoch = epochSeconds.length > 0 ? median(epochSeconds) : (epochEnds[0]! - started) / 1000
  const preprocessSeconds = Math.max(0, (epochEnds[0]! - started) / 1000 - secondsPerEpoch)
  const sampleStarted = performance.now()
  const sample = model.sample(table.rowCount, config.seed + 1)
  const sampleSeconds = (performance.now() - sampleStarted) / 1000
  const quality = qualityReport(table, sample)
  // The sample carries the source's form, as the generation service's outputs do.
  if (config.sampleCsv !== null) writeFileSync(config.sampleCsv, await sourceFormCsv(table.form === undefined ? sample : { ...sample, form: table.form }))
  return {
    bench: "neural-ours",
    dataset: config.data.split("/").at(-1),
    model: config.generator,
    rows: table.rowCount,
    columns: table.columns.length,
    epochs: config.epochs,
    epochsRun: epochEnds.length,
    batchSize: config.batchSize,
    targetEpsilon: config.targetEpsilon,
    privacy: model.privacy ?? null,
    fitSeconds: +fitSeconds.toFixed(3),
    preprocessSeconds: +preprocessSeconds.toFixed(3),
    secondsPerEpoch: +secondsPerEpoch.toFixed(3),
    epochSeconds: epochSeconds.map((seconds) => +seconds.toFixed(3)),
    sampleSeconds: +sampleSeconds.toFixed(3),
    qualityScore: quality.score,
    lastLosses: losses.at(-1) ?? null,
    rssBeforeFitMiB: mib(rssBeforeFit),
    peakRssMiB: mib(statusBytes("VmHWM")),
    loadAverage: loadavg()[0]
  }
}

const argument = process.argv[2]
if (argument === undefined) throw new Error("usage: neuralRun.ts '<json NeuralRun>'")
const config = JSON.parse(argument.startsWith("{") ? argument : readFileSync(argument, "utf8")) as NeuralRun
console.log(JSON.stringify(await run(config)))
// tfjs's wasm module keeps the event loop alive; this program is done.
process.exit(0)
