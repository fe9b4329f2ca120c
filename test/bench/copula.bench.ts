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
import { ingestTable, readTable } from "@synth/tabular"
import { fitGaussianCopula, makeRandom, qualityReport, type SynthTable, synthTableFromArrow } from "@synth/synth"
import { Effect, Either, Stream } from "effect"
import { readFileSync, writeFileSync } from "node:fs"

const largeRows = Number(process.env.BENCH_COPULA_ROWS ?? 1_000_000)
const qualityOfLarge = process.env.BENCH_COPULA_QUALITY_LARGE !== "0"

const mib = (bytes: number) => +(bytes / 2 ** 20).toFixed(1)
const statusBytes = (field: "VmHWM" | "VmRSS"): number => {
  try {
    const match = readFileSync("/proc/self/status", "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))
    return match ? Number(match[1]) * 1024 : process.memoryUsage().rss
  } catch {
    return process.memoryUsage().rss
  }
}
const resetPeak = () => {
  try {
    writeFileSync("/proc/self/clear_refs", "5")
  } catch {
    // Not Linux, or not allowed: the peak then covers the whole run so far.
  }
}
const timed = <A>(run: () => A): { result: A; ms: number } => {
  const started = performance.now()
  const result = run()
  return { result, ms: Math.round(performance.now() - started) }
}

const loadCsv = (path: string): Promise<SynthTable> =>
  Effect.runPromise(
    Effect.flatMap(ingestTable(() => Stream.make(new Uint8Array(readFileSync(path)))), ({ table }) => readTable(table)).pipe(
      Effect.map((table) => Either.getOrThrow(synthTableFromArrow(table)))
    )
  )

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

const thousandCategories = (rows: number): SynthTable => {
  const random = makeRandom(7)
  const codes = new Int32Array(rows), amount = new Float64Array(rows), count = new Float64Array(rows)
  for (let i = 0; i < rows; i++) {
    // Squaring a uniform skews frequencies towards the first categories, as real categories are.
    const u = random.next() ** 2
    codes[i] = Math.floor(u * 1000)
    amount[i] = Math.round(100 * (20 + 50 * u + 5 * random.normal())) / 100
    count[i] = Math.floor(-Math.log(1 - random.next()) * 3)
  }
  return {
    rowCount: rows,
    columns: [
      { kind: "categorical", name: "store", type: "string", categories: Array.from({ length: 1000 }, (_, i) => `store_${i}`), codes },
      { kind: "continuous", name: "amount", type: "float", values: amount, missing: null, sourceFormat: null },
      { kind: "continuous", name: "count", type: "integer", values: count, missing: null, sourceFormat: null }
    ]
  }
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
