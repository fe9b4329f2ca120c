// Gaussian copula (@synth/synth): fit time, sample time (as many rows as the input), SDMetrics-equivalent quality
// score and peak memory on the four sample datasets; then a million rows of diamonds-like data (sampled from the
// copula fitted on diamonds) fitted and sampled again; then a million rows with a 1,000-category column. Reading
// the CSVs is not timed. `peakRssMiB` is the process's high-water mark during the step (reset first through
// /proc/self/clear_refs where Linux allows it), `dataMiB` the resident memory before the step (the tables alive then),
// so their difference is what fit + sample add. One JSON object per measurement on stdout, a markdown table on stderr.
// Run with `node --expose-gc --import tsx` to collect garbage between steps (otherwise the earlier steps' garbage
// can count in a later step's peak).
//
// Knobs: BENCH_COPULA_ROWS (1000000): rows of the two large tables; BENCH_COPULA_QUALITY_LARGE (1): 0 skips the
// quality score of the million-row sample.
import { fitGaussianCopula, qualityReport, type SynthTable } from "@synth/synth"
import { loadCsv, mib, resetPeak, statusBytes, thousandCategories, timed } from "./support/measure.ts"

const largeRows = Number(process.env.BENCH_COPULA_ROWS ?? 1_000_000)
const qualityOfLarge = process.env.BENCH_COPULA_QUALITY_LARGE !== "0"

interface Row {
  readonly bench: string
  readonly rows: number
  readonly columns: number
  readonly fitMs: number
  readonly sampleMs: number
  readonly quality: number | null
  readonly dataMiB: number
  readonly peakRssMiB: number
}
const results: Array<Row> = []
const report = (row: Row) => {
  results.push(row)
  console.log(JSON.stringify(row))
}

const measure = (bench: string, table: SynthTable, withQuality: boolean) => {
  globalThis.gc?.()
  const dataBytes = statusBytes("VmRSS")
  resetPeak()
  const fit = timed(() => fitGaussianCopula(table, { seed: 1 }))
  const sample = timed(() => fit.result.sample(table.rowCount, 2))
  const peak = statusBytes("VmHWM")
  const quality = withQuality ? qualityReport(table, sample.result).score : null
  report({ bench, rows: table.rowCount, columns: table.columns.length, fitMs: fit.ms, sampleMs: sample.ms, quality, dataMiB: mib(dataBytes), peakRssMiB: mib(peak) })
  return fit.result
}

let diamondsCopula: ReturnType<typeof fitGaussianCopula> | null = null
for (const name of ["penguins", "diamonds", "telco_churn", "credit_data"]) {
  const table = await loadCsv(`test/fixtures/datasets/${name}.csv`)
  const fitted = measure(name, table, true)
  if (name === "diamonds") diamondsCopula = fitted
}
measure(`diamonds-like ${largeRows} rows`, diamondsCopula!.sample(largeRows, 3), qualityOfLarge)
measure(`1,000 categories ${largeRows} rows`, thousandCategories(largeRows), qualityOfLarge)

const cell = (value: number | null) => (value === null ? "–" : String(value))
console.error("| dataset | rows | columns | fit (ms) | sample (ms) | quality | RSS before (MiB) | peak RSS (MiB) |")
console.error("|---|---:|---:|---:|---:|---:|---:|---:|")
for (const row of results) {
  const quality = row.quality === null ? null : +row.quality.toFixed(4)
  console.error(`| ${row.bench} | ${row.rows} | ${row.columns} | ${row.fitMs} | ${row.sampleMs} | ${cell(quality)} | ${row.dataMiB} | ${row.peakRssMiB} |`)
}
