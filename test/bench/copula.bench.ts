// Gaussian copula (@synth/synth): fit time, sample time (as many rows as the input), SDMetrics-equivalent quality
// score and peak memory on the four sample datasets; then a million rows of diamonds-like data (sampled from the
// copula fitted on diamonds) fitted and sampled again; then a million rows with a 1,000-category column. Reading
// the CSVs is not timed. `peakRssMiB` is the process's high-water mark during the step (reset first through
// /proc/self/clear_refs where Linux allows it), `dataMiB` the resident memory before the step (the tables alive then),
// so their difference is what fit + sample add. One JSON object per measurement on stdout, a markdown table on stderr.
// Run with `node --expose-gc` to collect garbage between steps (otherwise the earlier steps' garbage
// can count in a later step's peak).
//
// The samples of the four datasets are also written as the service writes an output (in the source's form: its
// boolean spellings, date layouts, number forms) and scored by SDMetrics' QualityReport against the original file as
// uploaded (`fileQuality`), in the reference environment of test/bench/reference: a form the output loses costs
// quality there, as it costs the user who swaps the output in for the file.
//
// Knobs: BENCH_COPULA_ROWS (1000000): rows of the two large tables; BENCH_COPULA_QUALITY_LARGE (1): 0 skips the
// quality score of the million-row sample; BENCH_SDV (1): 0 skips SDMetrics' score against the file.
import { tableToCsv } from "@synth/tabular"
import { fitGaussianCopula, qualityReport, type SynthTable, synthTableToIpc } from "@synth/synth"
import { Effect, Stream } from "effect"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadCsv, mib, resetPeak, statusBytes, thousandCategories, timed } from "./support/measure.ts"
import { sdvQuality } from "./support/sdvReference.ts"

const largeRows = Number(process.env.BENCH_COPULA_ROWS ?? 1_000_000)
const qualityOfLarge = process.env.BENCH_COPULA_QUALITY_LARGE !== "0"
const withSdmetrics = process.env.BENCH_SDV !== "0"

interface Row {
  readonly bench: string
  readonly rows: number
  readonly columns: number
  readonly fitMs: number
  readonly sampleMs: number
  readonly quality: number | null
  /** SDMetrics' QualityReport of the output as written, against the original file; null where not scored. */
  readonly fileQuality: number | null
  readonly dataMiB: number
  readonly peakRssMiB: number
}
const results: Array<Row> = []
const report = (row: Row) => {
  results.push(row)
  console.log(JSON.stringify(row))
}

const work = await mkdtemp(join(tmpdir(), "synth-bench-copula-"))

/** SDMetrics' score of `sample`, written in `real`'s source form, against the file `real` was read from. */
const scoreAgainstFile = async (file: string, real: SynthTable, sample: SynthTable): Promise<number> => {
  const output = join(work, "sample.csv")
  const ipc = Stream.make(synthTableToIpc(real.form === undefined ? sample : { ...sample, form: real.form }))
  const chunks = await Effect.runPromise(Stream.runCollect(tableToCsv(ipc, "source")))
  await writeFile(output, Buffer.concat(Array.from(chunks)))
  return (await sdvQuality(file, output)).qualityScore
}

const measure = async (bench: string, table: SynthTable, withQuality: boolean, file: string | null = null) => {
  globalThis.gc?.()
  const dataBytes = statusBytes("VmRSS")
  resetPeak()
  const fit = timed(() => fitGaussianCopula(table, { seed: 1 }))
  const sample = timed(() => fit.result.sample(table.rowCount, 2))
  const peak = statusBytes("VmHWM")
  const quality = withQuality ? qualityReport(table, sample.result).score : null
  const fileQuality = file !== null && withSdmetrics ? await scoreAgainstFile(file, table, sample.result) : null
  report({
    bench,
    rows: table.rowCount,
    columns: table.columns.length,
    fitMs: fit.ms,
    sampleMs: sample.ms,
    quality,
    fileQuality,
    dataMiB: mib(dataBytes),
    peakRssMiB: mib(peak)
  })
  return fit.result
}

let diamondsCopula: ReturnType<typeof fitGaussianCopula> | null = null
try {
  for (const name of ["penguins", "diamonds", "telco_churn", "credit_data"]) {
    const file = `test/fixtures/datasets/${name}.csv`
    const fitted = await measure(name, await loadCsv(file), true, file)
    if (name === "diamonds") diamondsCopula = fitted
  }
  await measure(`diamonds-like ${largeRows} rows`, diamondsCopula!.sample(largeRows, 3), qualityOfLarge)
  await measure(`1,000 categories ${largeRows} rows`, thousandCategories(largeRows), qualityOfLarge)
} finally {
  await rm(work, { recursive: true, force: true })
}

const cell = (value: number | null) => (value === null ? "–" : String(value))
console.error("| dataset | rows | columns | fit (ms) | sample (ms) | quality | SDMetrics vs the file | RSS before (MiB) | peak RSS (MiB) |")
console.error("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for (const row of results) {
  const quality = row.quality === null ? null : +row.quality.toFixed(4)
  const fileQuality = row.fileQuality === null ? null : +row.fileQuality.toFixed(4)
  console.error(
    `| ${row.bench} | ${row.rows} | ${row.columns} | ${row.fitMs} | ${row.sampleMs} | ${cell(quality)} | ${cell(fileQuality)} | ${row.dataMiB} | ${row.peakRssMiB} |`
  )
}
