// A whole evaluation run (@synth/evaluation's evaluationRun, what POST /evaluations/run computes in the evaluation
// service's worker thread): statistical, diagnostic, privacy (holdout of 2,000 real rows the copula did not see) and
// ML utility with both algorithms (random_forest, xgboost), 3-fold cross-validation and a 20 % hold-out, on 10,000-row
// samples of telco_churn (classification `churn`, drawn with replacement from 7,043 rows), credit_data (classification
// `Status`, with replacement) and diamonds (regression `price`). The synthetic rows are a Gaussian copula sample of
// the same size; fitting, sampling and reading the CSV are not timed. Also the quick evaluation of diamonds' copula
// output at full size (53,940 rows each), the spec's other target. Wall time per part of the last round and medians.
// One JSON object per measurement on stdout.
//
// Knobs: BENCH_ROUNDS (1); BENCH_EVAL_ROWS (10000); BENCH_EVAL_DATASETS (telco_churn,credit_data,diamonds).
import { evaluationRun, quickEvaluation, sampleRows as sampleWithout } from "@synth/evaluation"
import { fitGaussianCopula, makeRandom, type SynthColumn, type SynthTable } from "@synth/synth"
import { loadavg } from "node:os"
import { loadCsv, median, timed } from "./support/measure.ts"

const rounds = Number(process.env.BENCH_ROUNDS ?? 1)
const rows = Number(process.env.BENCH_EVAL_ROWS ?? 10_000)
const datasets = (process.env.BENCH_EVAL_DATASETS ?? "telco_churn,credit_data,diamonds").split(",")
const targets: Record<string, string> = { telco_churn: "churn", diamonds: "price", credit_data: "Status" }
const holdoutRows = 2_000

const takeRows = (table: SynthTable, picked: Int32Array): SynthTable => ({
  rowCount: picked.length,
  columns: table.columns.map((column): SynthColumn =>
    column.kind === "categorical"
      ? { ...column, codes: Int32Array.from(picked, (row) => column.codes[row]!) }
      : { ...column, values: Float64Array.from(picked, (row) => column.values[row]!), missing: column.missing === null ? null : Uint8Array.from(picked, (row) => column.missing![row]!) }
  )
})

/** The last `holdoutRows` rows as the holdout; the rest resampled (with replacement) to `rows` as the real table. */
const splitTable = (table: SynthTable, seed: number) => {
  const random = makeRandom(seed)
  const trainingCount = table.rowCount - holdoutRows
  const training = takeRows(table, Int32Array.from({ length: rows }, () => random.integer(trainingCount)))
  const holdout = takeRows(table, Int32Array.from({ length: holdoutRows }, (_, i) => trainingCount + i))
  return { training, holdout }
}

const load = () => loadavg()[0]!.toFixed(2)

for (const name of datasets) {
  const full = await loadCsv(`test/fixtures/datasets/${name}.csv`)
  const { training, holdout } = splitTable(full, 11)
  const synthetic = fitGaussianCopula(training, { seed: 1 }).sample(rows, 2)
  const options = {
    sampleSize: rows,
    seed: 3,
    mlUtility: { algorithms: ["random_forest", "xgboost"] as const, test_size: 0.2, cross_validation_folds: 3, random_state: 0, target_column: targets[name] ?? null }
  }
  const times: Array<number> = []
  let last: ReturnType<typeof evaluationRun> | null = null
  for (let round = 0; round < rounds; round++) {
    const run = timed(() => evaluationRun(training, synthetic, holdout, options))
    times.push(run.ms)
    last = run.result
  }
  const utility = last!.mlUtility !== null && "algorithms" in last!.mlUtility ? last!.mlUtility : null
  console.log(JSON.stringify({
    bench: `evaluation-run ${name}`,
    rows,
    medianMs: median(times),
    times,
    load1: load(),
    overallScore: last!.summary.overallScore,
    privacyScore: last!.privacy.score,
    utilityRatios: utility?.algorithms.map((algorithm) => ({ algorithm: algorithm.algorithm, ratio: algorithm.utilityRatio }))
  }))
}

// The quick evaluation at full size: diamonds against a copula sample as large.
const diamonds = await loadCsv("test/fixtures/datasets/diamonds.csv")
const copulaSample = fitGaussianCopula(diamonds, { seed: 1 }).sample(diamonds.rowCount, 2)
const quickTimes: Array<number> = []
for (let round = 0; round < Math.max(rounds, 3); round++) {
  quickTimes.push(timed(() => quickEvaluation(diamonds, copulaSample)).ms)
}
console.log(JSON.stringify({ bench: "quick-evaluation diamonds", rows: diamonds.rowCount, medianMs: median(quickTimes), times: quickTimes, load1: load() }))
// The service samples 10,000 rows per table for a quick evaluation (POST /evaluations/quick's default).
const random = makeRandom(5)
const sampledTimes: Array<number> = []
for (let round = 0; round < Math.max(rounds, 3); round++) {
  sampledTimes.push(timed(() => quickEvaluation(sampleWithout(diamonds, 10_000, random.fork()), sampleWithout(copulaSample, 10_000, random.fork()))).ms)
}
console.log(JSON.stringify({ bench: "quick-evaluation diamonds 10k sample", rows: 10_000, medianMs: median(sampledTimes), times: sampledTimes, load1: load() }))
