// ML utility (@synth/evaluation): time of mlUtility with both algorithms (random_forest, xgboost), 3-fold
// cross-validation and a 20 % hold-out, on 10,000-row samples: telco_churn (binary target `churn`; 7,043 rows, so
// drawn with replacement), diamonds (regression target `price`; drawn without replacement) and credit_data (binary
// `Status`, with replacement). The synthetic table is a Gaussian copula sample of the same size (fit and sample not
// timed). Reported: median wall time per algorithm and for the whole call, plus the TRTR / TSTR scores of the last round.
//
// Knobs: BENCH_ROUNDS (3): timed rounds per dataset; BENCH_ML_ROWS (10000): rows of each sample; BENCH_ML_DATASETS
// (telco_churn,diamonds,credit_data): which datasets.
import { mlUtility, type MlUtilityResult } from "@synth/evaluation"
import { fitGaussianCopula, makeRandom, type SynthColumn, type SynthTable } from "@synth/synth"
import { loadCsv, median, timed } from "./support/measure.ts"

const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const sampleRows = Number(process.env.BENCH_ML_ROWS ?? 10_000)
const datasets = (process.env.BENCH_ML_DATASETS ?? "telco_churn,diamonds,credit_data").split(",")
const targets: Record<string, string> = { telco_churn: "churn", diamonds: "price", credit_data: "Status" }

const takeRows = (table: SynthTable, rows: Int32Array): SynthTable => ({
  rowCount: rows.length,
  columns: table.columns.map((column): SynthColumn =>
    column.kind === "categorical"
      ? { ...column, codes: Int32Array.from(rows, (row) => column.codes[row]!) }
      : { ...column, values: Float64Array.from(rows, (row) => column.values[row]!), missing: column.missing === null ? null : Uint8Array.from(rows, (row) => column.missing![row]!) }
  )
})

/** `count` rows: without replacement when the table has enough, otherwise with replacement. */
const sampleOf = (table: SynthTable, count: number, seed: number): SynthTable => {
  const random = makeRandom(seed)
  if (table.rowCount < count) return takeRows(table, Int32Array.from({ length: count }, () => random.integer(table.rowCount)))
  const order = Int32Array.from({ length: table.rowCount }, (_, i) => i)
  for (let i = 0; i < count; i++) {
    const j = i + random.integer(table.rowCount - i)
    const kept = order[i]!
    order[i] = order[j]!
    order[j] = kept
  }
  return takeRows(table, order.subarray(0, count).sort())
}

const rounded = (value: number | null | undefined) => (value === null || value === undefined ? null : +value.toFixed(4))

for (const name of datasets) {
  const real = sampleOf(await loadCsv(`test/fixtures/datasets/${name}.csv`), sampleRows, 11)
  const synthetic = fitGaussianCopula(real, { seed: 1 }).sample(sampleRows, 2)
  const config = { test_size: 0.2, cross_validation_folds: 3, random_state: 0, target_column: targets[name] ?? null }
  for (const algorithm of ["random_forest", "xgboost"] as const) {
    const times: Array<number> = []
    let last: MlUtilityResult | null = null
    for (let round = 0; round < rounds; round++) {
      const run = timed(() => mlUtility(real, synthetic, { ...config, algorithms: [algorithm] }))
      times.push(run.ms)
      last = run.result
    }
    const utility = last!.algorithms[0]!
    const scores = Object.fromEntries(Object.entries(utility.crossValidation.trtr).map(([metric, trtr]) => [metric, { trtr: rounded(trtr?.mean), tstr: rounded(utility.crossValidation.tstr[metric as keyof typeof utility.crossValidation.tstr]?.mean) }]))
    console.log(JSON.stringify({ bench: `ml-utility ${name} ${algorithm}`, rows: sampleRows, features: last!.featureCount, fits: 2 + 2 * config.cross_validation_folds, medianMs: median(times), times, scores, utilityRatio: rounded(utility.utilityRatio) }))
  }
  const both = timed(() => mlUtility(real, synthetic, { ...config, algorithms: ["random_forest", "xgboost"] }))
  console.log(JSON.stringify({ bench: `ml-utility ${name} both`, rows: sampleRows, ms: both.ms }))
}
