// One CTGAN or DP-CTGAN training for test/bench/dp-step.bench.ts, in a process of its own so that the step engine
// (SYNTH_CTGAN_STEP, read once per training) is the one its parent set: `node test/bench/support/dpStepRun.ts
// '<json DpStepRun>'` prints one JSON line with each step's wall and CPU time (from onProgress, called after every
// step), their medians, and the quality score of a sample as large as the table.
import { qualityReport } from "@synth/synth"
import { fitCtgan } from "@synth/synth/neural/ctgan"
import { loadCsv, median } from "./measure.ts"

export interface DpStepRun {
  readonly data: string
  readonly epochs: number
  readonly batchSize: number
  readonly seed: number
  /** null: CTGAN without DP. */
  readonly targetEpsilon: number | null
}

/** The first steps include the first calls' set-up (ONNX Runtime sessions, buffers): left out of the medians. */
const WARM_UP_STEPS = 3

const run = async (config: DpStepRun) => {
  const table = await loadCsv(config.data)
  const wallMs: Array<number> = []
  const cpuMs: Array<number> = []
  let last = performance.now()
  let lastCpu = process.cpuUsage()
  const started = last
  const model = await fitCtgan(table, {
    seed: config.seed,
    epochs: config.epochs,
    batchSize: config.batchSize,
    ...(config.targetEpsilon === null ? {} : { dp: { targetEpsilon: config.targetEpsilon } }),
    onProgress: () => {
      const now = performance.now()
      const cpu = process.cpuUsage(lastCpu)
      wallMs.push(now - last)
      cpuMs.push((cpu.user + cpu.system) / 1000)
      last = performance.now()
      lastCpu = process.cpuUsage()
    },
    // The event loop's turn between epochs is not a step.
    onEpoch: () => {
      last = performance.now()
      lastCpu = process.cpuUsage()
    }
  })
  const fitSeconds = (performance.now() - started) / 1000
  const quality = qualityReport(table, model.sample(table.rowCount, config.seed + 1))
  model.dispose()
  const steady = (values: ReadonlyArray<number>) => values.slice(Math.min(WARM_UP_STEPS, values.length - 1))
  return {
    steps: wallMs.length,
    medianWallMs: +median(steady(wallMs)).toFixed(1),
    medianCpuMs: +median(steady(cpuMs)).toFixed(1),
    fitSeconds: +fitSeconds.toFixed(2),
    qualityScore: quality.score === null ? null : +quality.score.toFixed(4),
    epsilonSpent: model.privacy?.epsilonSpent ?? null,
    noiseMultiplier: model.privacy?.noiseMultiplier ?? null
  }
}

console.log(JSON.stringify(await run(JSON.parse(process.argv[2]!) as DpStepRun)))
