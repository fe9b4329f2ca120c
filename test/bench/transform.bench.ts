// The reversible table transformer (@synth/synth transform/): fit time (Bayesian mixtures on at most 10,000 values
// per numeric column, one-hot capped at 300 slots), encoded width, and encode / decode throughput in batches of 500
// rows (as a model reads them), on the four sample datasets; then a million rows of diamonds-like data (sampled from
// a copula fitted on diamonds) and a million rows with a 1,000-category column, with the peak memory of encoding
// them batch by batch beside what the whole encoded matrix would take. Fit: median of 3 runs. Reading the CSVs is
// not timed. One JSON object per measurement on stdout, a markdown table on stderr.
// Run with `node --expose-gc` to collect garbage between steps.
//
// Knobs: BENCH_TRANSFORM_ROWS (1000000): rows of the two large tables.
import { fitGaussianCopula, fitTableTransformer, makeRandom, type SynthTable, type TableTransformer } from "@synth/synth"
import { loadCsv, median, mib, resetPeak, statusBytes, thousandCategories, timed } from "./support/measure.ts"

const largeRows = Number(process.env.BENCH_TRANSFORM_ROWS ?? 1_000_000)
const BATCH = 500

interface Row {
  readonly bench: string
  readonly rows: number
  readonly columns: number
  readonly width: number
  readonly fitMs: number
  readonly encodeMs: number
  readonly decodeMs: number
  readonly encodedMatrixMiB: number
  readonly dataMiB: number
  readonly peakRssMiB: number
}
const results: Array<Row> = []

/** Encodes every row a batch at a time into one reused buffer, decoding each batch as it goes. */
const encodeAndDecode = (transformer: TableTransformer, table: SynthTable) => {
  const random = makeRandom(2)
  const buffer = new Float32Array(BATCH * transformer.width)
  const rows = new Int32Array(BATCH)
  const decoder = transformer.decoder(table.rowCount, makeRandom(3))
  let encodeMs = 0
  let decodeMs = 0
  for (let start = 0; start < table.rowCount; start += BATCH) {
    const count = Math.min(BATCH, table.rowCount - start)
    for (let i = 0; i < count; i++) rows[i] = start + i
    let started = performance.now()
    transformer.encode(table, rows.subarray(0, count), random, buffer)
    encodeMs += performance.now() - started
    started = performance.now()
    decoder.write(buffer, count)
    decodeMs += performance.now() - started
  }
  return { encodeMs: Math.round(encodeMs), decodeMs: Math.round(decodeMs), decoded: decoder.finish() }
}

const measure = (bench: string, table: SynthTable) => {
  globalThis.gc?.()
  const dataBytes = statusBytes("VmRSS")
  resetPeak()
  const fits = [1, 2, 3].map((seed) => timed(() => fitTableTransformer(table, { seed })))
  const transformer = fits[0]!.result
  const { decodeMs, encodeMs } = encodeAndDecode(transformer, table)
  const peak = statusBytes("VmHWM")
  const row: Row = {
    bench,
    rows: table.rowCount,
    columns: table.columns.length,
    width: transformer.width,
    fitMs: median(fits.map(({ ms }) => ms)),
    encodeMs,
    decodeMs,
    encodedMatrixMiB: mib(table.rowCount * transformer.width * 4),
    dataMiB: mib(dataBytes),
    peakRssMiB: mib(peak)
  }
  results.push(row)
  console.log(JSON.stringify(row))
}

let diamonds: SynthTable | null = null
for (const name of ["penguins", "diamonds", "telco_churn", "credit_data"]) {
  const table = await loadCsv(`test/fixtures/datasets/${name}.csv`)
  measure(name, table)
  if (name === "diamonds") diamonds = table
}
const diamondsLike = fitGaussianCopula(diamonds!, { seed: 1 }).sample(largeRows, 3)
diamonds = null
measure(`diamonds-like ${largeRows} rows`, diamondsLike)
measure(`1,000 categories ${largeRows} rows`, thousandCategories(largeRows))

const perSecond = (rows: number, ms: number) => (ms === 0 ? "–" : Math.round(rows / (ms / 1000)).toLocaleString("en-US"))
console.error("| dataset | rows | columns | encoded width | fit (ms) | encode (rows/s) | decode (rows/s) | whole matrix (MiB) | RSS before (MiB) | peak RSS (MiB) |")
console.error("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for (const row of results) {
  console.error(
    `| ${row.bench} | ${row.rows} | ${row.columns} | ${row.width} | ${row.fitMs} | ${perSecond(row.rows, row.encodeMs)} | ${perSecond(row.rows, row.decodeMs)} | ${row.encodedMatrixMiB} | ${row.dataMiB} | ${row.peakRssMiB} |`
  )
}
