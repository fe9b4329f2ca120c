// Evaluation metrics (@synth/evaluation) on diamonds: the quick evaluation of a Gaussian copula's sample (as many
// rows as diamonds, 53,940) and the full statistical and diagnostic reports; then the privacy metrics on 10,000-row
// samples (training and synthetic 10,000 rows each, a holdout of 5,000 real rows the copula also saw — the timing,
// not the figures, is the point). Fitting, sampling and reading the CSV are not timed. Medians over the rounds.
// One JSON object per measurement on stdout, a markdown table on stderr.
//
// Knobs: BENCH_ROUNDS (5): rounds of each measurement; BENCH_PRIVACY_ROWS (10000): rows per privacy sample.
import { closestRecordDistances, diagnosticReport, newRowSynthesis, privacyReport, quickEvaluation, sampleRows, statisticalReport } from "@synth/evaluation"
import { fitGaussianCopula, makeRandom } from "@synth/synth"
import { loadCsv, median } from "./support/measure.ts"

const rounds = Number(process.env.BENCH_ROUNDS ?? 5)
const privacyRows = Number(process.env.BENCH_PRIVACY_ROWS ?? 10_000)

interface Row {
  readonly bench: string
  readonly rows: number
  readonly medianMs: number
  readonly figure: string
}
const results: Array<Row> = []

const measure = <A>(bench: string, rows: number, run: () => A, figureOf: (result: A) => string) => {
  const times: Array<number> = []
  let result: A | undefined
  for (let round = 0; round < rounds; round++) {
    const started = performance.now()
    result = run()
    times.push(performance.now() - started)
  }
  const row = { bench, rows, medianMs: Math.round(median(times)), figure: figureOf(result!) }
  results.push(row)
  console.log(JSON.stringify(row))
}

const real = await loadCsv("test/fixtures/datasets/diamonds.csv")
const copula = fitGaussianCopula(real, { seed: 1 })
const synthetic = copula.sample(real.rowCount, 2)
measure("quick evaluation", real.rowCount, () => quickEvaluation(real, synthetic, { generator: "gaussian_copula" }), (r) =>
  `quality ${r.overallScore?.toFixed(4)}, ks ${r.statisticalSimilarity.ksTest?.toFixed(4)}, chi² ${r.statisticalSimilarity.chiSquare?.toFixed(4)}, W ${r.statisticalSimilarity.wassersteinDistance?.toFixed(4)}`)
measure("statistical report", real.rowCount, () => statisticalReport(real, synthetic), (r) => `${r.pairs.length} pairs`)
measure("diagnostic report", real.rowCount, () => diagnosticReport(real, synthetic), (r) => `score ${r.score?.toFixed(4)}`)

const random = makeRandom(9)
const training = sampleRows(real, privacyRows, random.fork())
const holdout = sampleRows(real, privacyRows / 2, random.fork())
const syntheticSample = copula.sample(privacyRows, 3)
measure("closest records (one n × m scan)", privacyRows, () => closestRecordDistances(syntheticSample, training), (r) => `${r.nearest.length} rows`)
measure("new-row synthesis", privacyRows, () => newRowSynthesis(training, syntheticSample), (r) => `${r.matchedRows} matched`)
measure("privacy report", privacyRows, () => privacyReport(training, syntheticSample, holdout, { seed: 1, maxRows: privacyRows }), (r) =>
  `score ${r.score?.toFixed(4)}, DCR baseline ${r.dcrBaselineProtection.score?.toFixed(4)}, MIA AUC ${r.membershipInference?.auc.toFixed(4)}`)

console.error("| measurement | rows | median (ms) | figures |")
console.error("|---|---:|---:|---|")
for (const row of results) console.error(`| ${row.bench} | ${row.rows} | ${row.medianMs} | ${row.figure} |`)
