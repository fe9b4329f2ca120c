// One of our models fitted and sampled, in a process of its own: `node test/bench/support/samplingRun.ts '<json
// SamplingRun>'` prints one JSON line. The model is trained on the table as the generation service prepares it
// (protections at their defaults, nothing found by the scan), then timed from the fitted model: to a table in
// memory (`model.sample`, what SDV's `sample` gives: a DataFrame), and to the CSV the user downloads (the protected
// sample, `sampleWithRules` as the worker calls it, then Arrow IPC and the CSV in the source's form). `tree` runs
// another checkout's code (a "before" tree) with this script, so both are measured the same way in one run.
import type * as Protect from "@synth/protect"
import type * as Synth from "@synth/synth"
import type * as Tabular from "@synth/tabular"
import { Effect, Result, Stream } from "effect"
import { loadavg } from "node:os"
import { median } from "./measure.ts"

export interface SamplingRun {
  /** The checkout whose libraries to run (this one's root for the current code). */
  readonly tree: string
  readonly data: string
  readonly generator: Extract<Synth.GeneratorKind, "gaussian_copula" | "ctgan" | "tvae" | "dp-ctgan">
  readonly epochs: number
  readonly batchSize: number
  readonly seed: number
  readonly targetEpsilon: number | null
  readonly rows: ReadonlyArray<number>
  readonly rounds: number
}

const nothingFound = { findings: [], identifiers: [], quasi_identifiers: [] }
const noRules = { constraints: [], conditions: [] }

/** Median wall and CPU seconds of `rounds` runs of `work(round)`. */
const timeRounds = (rounds: number, work: (round: number) => unknown) => {
  const wall: Array<number> = []
  const cpu: Array<number> = []
  for (let round = 0; round < rounds; round++) {
    const cpuStarted = process.cpuUsage()
    const started = performance.now()
    work(round)
    wall.push((performance.now() - started) / 1000)
    const used = process.cpuUsage(cpuStarted)
    cpu.push((used.user + used.system) / 1e6)
  }
  return { seconds: +median(wall).toFixed(4), cpuSeconds: +median(cpu).toFixed(4), roundSeconds: wall.map((seconds) => +seconds.toFixed(4)) }
}

const run = async (config: SamplingRun) => {
  const synth = (await import(`${config.tree}/libs/synth/src/index.ts`)) as typeof Synth
  const protect = (await import(`${config.tree}/libs/protect/src/index.ts`)) as typeof Protect
  const tabular = (await import(`${config.tree}/libs/tabular/src/index.ts`)) as typeof Tabular
  const { loadCsv } = (await import(`${config.tree}/test/bench/support/measure.ts`)) as { loadCsv: (path: string) => Promise<Synth.SynthTable> }
  const table = await loadCsv(config.data)
  const prepared = protect.prepareTraining({
    table,
    scan: nothingFound,
    overrides: {},
    settings: protect.defaultProtectionSettings,
    seed: config.seed,
    differentiallyPrivate: config.generator === "dp-ctgan",
    protectTogether: []
  }, protect.defaultFakers)
  const fitStarted = performance.now()
  const trained = await synth.trainModel(config.generator, prepared.learned, {
    seed: config.seed,
    epochs: config.epochs,
    batchSize: config.batchSize,
    targetEpsilon: config.targetEpsilon
  })
  if (Result.isFailure(trained)) throw new Error(`training refused: ${JSON.stringify(trained.failure)}`)
  const fitSeconds = (performance.now() - fitStarted) / 1000
  const model = trained.success
  // The first sample of a process loads and compiles what sampling runs; SDV's first sample pays the like.
  model.sample(Math.min(500, config.rows[0] ?? 500), config.seed)
  const csvOf = async (sample: Synth.SynthTable) => {
    const chunks = await Effect.runPromise(Stream.runCollect(tabular.tableToCsv(Stream.make(synth.synthTableToIpc(sample)), "source")))
    return Array.from(chunks).reduce((bytes, chunk) => bytes + chunk.length, 0)
  }
  const samples = []
  for (const rows of config.rows) {
    const load = loadavg()[0]!
    const inMemory = timeRounds(config.rounds, (round) => model.sample(rows, config.seed + 1 + round))
    const drawProtected = (round: number) =>
      protect.sampleWithRules(prepared.plan, model, prepared.filters, protect.defaultFakers, rows, config.seed + 1 + round, noRules)
    const protectedSample = timeRounds(config.rounds, drawProtected)
    // The CSV is written asynchronously (a stream); timed by hand around the awaited whole.
    const fileSeconds: Array<number> = []
    let csvBytes = 0
    for (let round = 0; round < config.rounds; round++) {
      const started = performance.now()
      const drawn = drawProtected(round)
      if (!drawn.ok) throw new Error(`the protected sample was refused: ${drawn.refusal.message}`)
      csvBytes = await csvOf(drawn.sample.table)
      fileSeconds.push((performance.now() - started) / 1000)
    }
    samples.push({
      rows,
      ...inMemory,
      protectedSeconds: protectedSample.seconds,
      fileSeconds: +median(fileSeconds).toFixed(4),
      csvBytes,
      loadAverage: +load.toFixed(2)
    })
  }
  return {
    bench: "sampling-ours",
    tree: config.tree,
    dataset: config.data.split("/").at(-1),
    model: config.generator,
    epochs: config.generator === "gaussian_copula" ? null : config.epochs,
    fitSeconds: +fitSeconds.toFixed(3),
    samples
  }
}

const argument = process.argv[2]
if (argument === undefined) throw new Error("usage: samplingRun.ts '<json SamplingRun>'")
console.log(JSON.stringify(await run(JSON.parse(argument) as SamplingRun)))
// tfjs's wasm module keeps the event loop alive; this program is done.
process.exit(0)
