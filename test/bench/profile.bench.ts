// Time and peak memory of @synth/stats' profile() on diamonds (53,940 x 10) and on a generated table (1M x 20:
// 12 numeric columns with some missing values, 8 categorical ones from 2 to 5,000 categories). Reading the data is
// not timed; each dataset is profiled BENCH_ROUNDS times and the median reported. `peakRssMiB` is the process's
// high-water mark while profiling (reset first through /proc/self/clear_refs where Linux allows it), `dataMiB` the
// resident memory before profiling, so their difference is what profile() itself adds.
//
// Knobs: BENCH_ROUNDS (3), BENCH_PROFILE_ROWS (1000000), BENCH_PROFILE_CSV (a path: also write the generated table
// there as CSV, for libs/stats/reference/bench_pandas.py to time pandas on the same data).
import type { ProfileColumn, ProfileInput } from "@synth/stats"
import { profile } from "@synth/stats"
import { profileInputFromCsv } from "@synth/stats/testing"
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs"
import { dirname } from "node:path"

const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const generatedRows = Number(process.env.BENCH_PROFILE_ROWS ?? 1_000_000)
const csvPath = process.env.BENCH_PROFILE_CSV

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const mib = (bytes: number) => +(bytes / 2 ** 20).toFixed(1)

const statusKiB = (field: "VmHWM" | "VmRSS"): number | undefined => {
  try {
    const match = readFileSync("/proc/self/status", "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))
    return match ? Number(match[1]) * 1024 : undefined
  } catch {
    return undefined
  }
}

/** Resets the kernel's peak-RSS mark so VmHWM measures from here; false where the kernel does not allow it. */
const resetPeak = (): boolean => {
  try {
    writeFileSync("/proc/self/clear_refs", "5")
    return true
  } catch {
    return false
  }
}

const measure = (bench: string, input: ProfileInput) => {
  const dataBytes = statusKiB("VmRSS") ?? process.memoryUsage().rss
  const peakReset = resetPeak()
  const times: Array<number> = []
  for (let round = 0; round < rounds; round++) {
    const started = performance.now()
    profile(input)
    times.push(performance.now() - started)
  }
  const peakBytes = statusKiB("VmHWM") ?? process.memoryUsage().rss
  console.log(JSON.stringify({
    bench,
    rows: input.rowCount,
    columns: input.columns.length,
    medianMs: Math.round(median(times)),
    roundsMs: times.map(Math.round),
    dataMiB: mib(dataBytes),
    peakRssMiB: mib(peakBytes),
    peakSinceData: peakReset
  }))
}

/** mulberry32: small, seeded, good enough to make data that is the same on every run. */
const random = (() => {
  let state = 0x5eed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
})()
const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())

const numericColumn = (
  name: string,
  type: "integer" | "float",
  rows: number,
  draw: () => number,
  missingShare: number
): ProfileColumn => {
  const values = new Float64Array(rows)
  for (let row = 0; row < rows; row++) values[row] = random() < missingShare ? NaN : draw()
  return { name, type, values }
}

const categoricalColumn = (name: string, rows: number, cardinality: number, missingShare: number): ProfileColumn => {
  const categories = Array.from({ length: cardinality }, (_, index) => `${name}_${index}`)
  const codes = new Int32Array(rows)
  // Squaring the uniform draw skews frequencies towards the first categories, as real categories are.
  for (let row = 0; row < rows; row++) codes[row] = random() < missingShare ? -1 : Math.floor(random() ** 2 * cardinality)
  return { name, type: "string", codes, categories }
}

const generated = (rows: number): ProfileInput => ({
  rowCount: rows,
  columns: [
    numericColumn("normal_a", "float", rows, () => 50 + 10 * normal(), 0),
    numericColumn("normal_b", "float", rows, () => -3 + 0.5 * normal(), 0.02),
    numericColumn("lognormal", "float", rows, () => Math.exp(normal()), 0),
    numericColumn("uniform", "float", rows, random, 0.05),
    numericColumn("price", "float", rows, () => Math.round(100 * Math.exp(1 + normal())) / 100, 0),
    numericColumn("ratio", "float", rows, () => random() / (random() + 0.1), 0.01),
    numericColumn("age", "integer", rows, () => 18 + Math.floor(random() * 70), 0),
    numericColumn("count", "integer", rows, () => Math.floor(-Math.log(1 - random()) * 3), 0.01),
    numericColumn("year", "integer", rows, () => 1990 + Math.floor(random() * 35), 0),
    numericColumn("score", "integer", rows, () => Math.floor(random() * 1000), 0),
    numericColumn("flag", "integer", rows, () => (random() < 0.3 ? 1 : 0), 0),
    numericColumn("units", "integer", rows, () => Math.floor(random() * 20), 0.1),
    categoricalColumn("yes_no", rows, 2, 0),
    categoricalColumn("segment", rows, 5, 0.01),
    categoricalColumn("region", rows, 10, 0),
    categoricalColumn("state", rows, 50, 0.02),
    categoricalColumn("product", rows, 200, 0),
    categoricalColumn("store", rows, 1000, 0),
    categoricalColumn("customer", rows, 5000, 0),
    categoricalColumn("channel", rows, 3, 0.2)
  ]
})

const csvCell = (column: ProfileColumn, row: number): string => {
  if ("codes" in column) {
    const code = column.codes[row]!
    return code < 0 ? "" : `"${column.categories[code]}"`
  }
  const value = column.values[row]!
  return Number.isNaN(value) ? "" : String(value)
}

const writeCsv = (path: string, input: ProfileInput) => {
  mkdirSync(dirname(path), { recursive: true })
  const file = openSync(path, "w")
  writeSync(file, input.columns.map((column) => `"${column.name}"`).join(",") + "\n")
  const chunkRows = 50_000
  for (let start = 0; start < input.rowCount; start += chunkRows) {
    const lines: Array<string> = []
    for (let row = start; row < Math.min(start + chunkRows, input.rowCount); row++) {
      lines.push(input.columns.map((column) => csvCell(column, row)).join(","))
    }
    writeSync(file, lines.join("\n") + "\n")
  }
  closeSync(file)
  console.error(`wrote the generated table to ${path}`)
}

const diamonds = profileInputFromCsv(readFileSync(new URL("../fixtures/datasets/diamonds.csv", import.meta.url), "utf8"))
measure("profile diamonds", diamonds)
const table = generated(generatedRows)
if (csvPath !== undefined) writeCsv(csvPath, table)
measure(`profile generated ${generatedRows} x 20`, table)
