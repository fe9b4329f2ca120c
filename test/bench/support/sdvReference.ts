// SDV's CTGAN and TVAE (PyTorch on CPU) as the reference the neural-generator benchmark compares ours with, run
// through test/bench/reference/sdv_reference.py in a virtual environment of its own (.cache/sdv-bench, made from the
// pinned requirements.txt the first time, about 6 GB with the CUDA wheels PyPI's torch depends on). Progress and the
// script's own messages go to stderr, so a benchmark's stdout keeps only its JSON lines.
import { Schema } from "effect"
import { spawn, type StdioOptions } from "node:child_process"
import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { repoRoot } from "../../support/server.ts"

const referenceDir = join(repoRoot, "test/bench/reference")
const script = join(referenceDir, "sdv_reference.py")
const requirements = join(referenceDir, "requirements.txt")
/** BENCH_SDV_VENV puts the environment elsewhere (a shared cache, a bigger disk). */
const venv = process.env.BENCH_SDV_VENV ?? join(repoRoot, ".cache/sdv-bench")
const python = join(venv, "bin", "python")
/** Holds the hash of the requirements the environment was installed from, written once pip succeeded. */
const installedStamp = join(venv, ".requirements.sha256")

const Sdtypes = Schema.Record(Schema.String, Schema.String)

/** One discrete column's categories in a sample against the real table's (sdv_reference.py, `category_coverage`). */
export const CategoryCoverage = Schema.Struct({
  /** Real categories that occur in the sample, of `real`. */
  kept: Schema.Number,
  real: Schema.Number,
  /** Total variation distance of the category shares. */
  tvd: Schema.Number,
  /** The sample's most frequent category, its share there and in the real table. */
  top: Schema.String,
  topShare: Schema.Number,
  topRealShare: Schema.Number
})
export type CategoryCoverage = typeof CategoryCoverage.Type

const QualityScores = {
  qualityScore: Schema.Number,
  columnShapes: Schema.Number,
  columnPairTrends: Schema.Number,
  /** Each column's Column Shapes score. */
  shapeScores: Schema.Record(Schema.String, Schema.Number),
  /** The weakest column pairs, weakest first. */
  worstPairs: Schema.Array(Schema.Struct({ columns: Schema.Array(Schema.String), metric: Schema.String, score: Schema.Number })),
  coverage: Schema.Record(Schema.String, CategoryCoverage)
}

export const SdvRunResult = Schema.Struct({
  bench: Schema.String,
  dataset: Schema.String,
  model: Schema.Literals(["ctgan", "tvae"]),
  rows: Schema.Number,
  columns: Schema.Number,
  epochs: Schema.Number,
  batchSize: Schema.Number,
  seed: Schema.Number,
  threads: Schema.Number,
  /** `synthesizer.fit` wall time: SDV's preprocessing, the DataTransformer and all epochs. */
  fitSeconds: Schema.Number,
  /** SDV's own preprocessing (RDT) plus the DataTransformer's fit (Bayesian GMMs) and transform. */
  preprocessSeconds: Schema.Number,
  sdvPreprocessSeconds: Schema.Number,
  transformerFitSeconds: Schema.Number,
  transformerTransformSeconds: Schema.Number,
  /** From the first epoch's start to the last one's end. */
  trainingSeconds: Schema.Number,
  /** Median of `epochSeconds`. */
  secondsPerEpoch: Schema.Number,
  epochSeconds: Schema.Array(Schema.Number),
  /** Median of `epochCpuSeconds`: the process's CPU time over each epoch, all threads together. */
  cpuSecondsPerEpoch: Schema.Number,
  epochCpuSeconds: Schema.Array(Schema.Number),
  sampleSeconds: Schema.Number,
  sampleRows: Schema.Number,
  ...QualityScores,
  /** Resident memory after imports and reading the CSV, before fit. */
  rssBeforeFitMiB: Schema.Number,
  /** The Python process's high-water mark over the whole run. */
  peakRssMiB: Schema.Number,
  /** The largest high-water mark among the joblib workers the DataTransformer transforms columns in. */
  peakWorkerRssMiB: Schema.Number,
  sdtypes: Sdtypes,
  forcedSdtypes: Sdtypes,
  /** 1-minute load average before fit and after scoring: above `threads`, others shared the cores. */
  loadAverage: Schema.Array(Schema.Number),
  versions: Sdtypes
})
export type SdvRunResult = typeof SdvRunResult.Type

export const SdvQualityResult = Schema.Struct({
  dataset: Schema.String,
  rows: Schema.Number,
  syntheticRows: Schema.Number,
  ...QualityScores,
  sdtypes: Sdtypes,
  forcedSdtypes: Sdtypes,
  versions: Sdtypes
})
export type SdvQualityResult = typeof SdvQualityResult.Type

export interface SdvRun {
  /** A CSV path, absolute or relative to the repository root. */
  readonly data: string
  readonly model: "ctgan" | "tvae"
  readonly epochs: number
  readonly batchSize: number
  readonly seed: number
  /** torch and BLAS threads; 2 by default, the cores a developer's machine has. */
  readonly threads?: number
  /** Where to keep SDV's sample as CSV, to score it again (`sdvQuality`) as ours is scored. */
  readonly sampleCsv?: string
}

const note = (message: string) => console.error(`sdv-reference: ${message}`)

/** Runs a command from the repository root; resolves with its stdout, rejects with its output when it fails. */
const execute = (command: string, args: ReadonlyArray<string>, stdio: "capture" | "stderr"): Promise<string> =>
  new Promise((resolve, reject) => {
    const streams: StdioOptions = stdio === "capture" ? ["ignore", "pipe", "pipe"] : ["ignore", 2, 2]
    const child = spawn(command, args, { cwd: repoRoot, stdio: streams })
    let stdout = ""
    let stderr = ""
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.once("error", reject)
    child.once("close", (code, signal) => {
      if (code === 0) resolve(stdout)
      else reject(new Error(`${command} ${args.join(" ")} exited with ${code ?? signal}\n${stderr.slice(-4000)}`))
    })
  })

const requirementsHash = () => createHash("sha256").update(readFileSync(requirements)).digest("hex")

/**
 * Makes the virtual environment when it is missing or was installed from other requirements, and returns its
 * python. The first install downloads torch with its CUDA wheels (several GB) and takes minutes.
 */
export const ensureSdvVenv = async (): Promise<string> => {
  const wanted = requirementsHash()
  if (existsSync(installedStamp) && readFileSync(installedStamp, "utf8").trim() === wanted) return python
  const started = performance.now()
  if (!existsSync(python)) {
    note(`creating the virtual environment ${venv}`)
    await execute("python3", ["-m", "venv", venv], "stderr")
  }
  note(`installing ${requirements} into it (torch with its CUDA wheels: several GB, some minutes)`)
  await execute(python, ["-m", "pip", "install", "--disable-pip-version-check", "-r", requirements], "stderr")
  await writeFile(installedStamp, `${wanted}\n`)
  note(`environment ready in ${Math.round((performance.now() - started) / 1000)} s`)
  return python
}

const lastJsonLine = (stdout: string): unknown => {
  const line = stdout.trimEnd().split("\n").reverse().find((text) => text.startsWith("{"))
  if (line === undefined) throw new Error(`sdv_reference.py printed no JSON result:\n${stdout.slice(-4000)}`)
  return JSON.parse(line)
}

/** The script's arguments that say what to fit: the table, the model and its training settings. */
const fitArguments = (run: {
  readonly data: string
  readonly model: string
  readonly epochs: number
  readonly batchSize: number
  readonly seed: number
}) => [
  "--data", run.data,
  "--model", run.model,
  "--epochs", String(run.epochs),
  "--batch-size", String(run.batchSize),
  "--seed", String(run.seed)
]

/** Trains SDV's synthesizer on one CSV, samples as many rows, scores them; the script's measurements. */
export const runSdvReference = async (run: SdvRun): Promise<SdvRunResult> => {
  const interpreter = await ensureSdvVenv()
  const dir = await mkdtemp(join(tmpdir(), "sdv-reference-"))
  try {
    const output = join(dir, "result.json")
    note(`${run.model} on ${run.data}, ${run.epochs} epochs`)
    await execute(interpreter, [
      script,
      ...fitArguments(run),
      "--threads", String(run.threads ?? 2),
      "--output", output,
      ...(run.sampleCsv === undefined ? [] : ["--sample-output", run.sampleCsv])
    ], "capture")
    return Schema.decodeUnknownSync(SdvRunResult)(JSON.parse(await readFile(output, "utf8")))
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** SDMetrics' QualityReport of a synthetic CSV against the real one, by the same SDMetrics as the reference runs. */
export const sdvQuality = async (realCsv: string, syntheticCsv: string): Promise<SdvQualityResult> => {
  const interpreter = await ensureSdvVenv()
  const stdout = await execute(interpreter, [script, "--quality-only", realCsv, syntheticCsv], "capture")
  return Schema.decodeUnknownSync(SdvQualityResult)(lastJsonLine(stdout))
}

export const SdvSamplingResult = Schema.Struct({
  bench: Schema.String,
  dataset: Schema.String,
  model: Schema.Literals(["ctgan", "tvae", "copula"]),
  epochs: Schema.NullOr(Schema.Number),
  threads: Schema.Number,
  fitSeconds: Schema.Number,
  /** Per row count: the median wall and process CPU seconds of `synthesizer.sample`, and each round's wall time. */
  samples: Schema.Array(Schema.Struct({
    rows: Schema.Number,
    seconds: Schema.Number,
    cpuSeconds: Schema.Number,
    roundSeconds: Schema.Array(Schema.Number),
    loadAverage: Schema.Number
  })),
  versions: Sdtypes
})
export type SdvSamplingResult = typeof SdvSamplingResult.Type

export interface SdvSampling {
  readonly data: string
  /** copula: SDV's GaussianCopulaSynthesizer with its defaults. */
  readonly model: "ctgan" | "tvae" | "copula"
  readonly epochs: number
  readonly batchSize: number
  readonly seed: number
  readonly rows: ReadonlyArray<number>
  readonly rounds: number
}

/** Fits SDV's synthesizer, then times its `sample` for each row count (the script's sampling mode). */
export const runSdvSampling = async (run: SdvSampling): Promise<SdvSamplingResult> => {
  const interpreter = await ensureSdvVenv()
  note(`${run.model} on ${run.data}: sampling ${run.rows.join(", ")} rows`)
  const stdout = await execute(interpreter, [
    script,
    ...fitArguments(run),
    "--sample-rows", run.rows.join(","),
    "--sample-rounds", String(run.rounds)
  ], "capture")
  return Schema.decodeUnknownSync(SdvSamplingResult)(lastJsonLine(stdout))
}
