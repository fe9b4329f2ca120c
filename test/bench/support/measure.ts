// What the in-process model benchmarks share: memory readings from /proc, a timer, a CSV loaded through ingestion
// as uploads are, and a synthetic table with a 1,000-category column.
import { ingestTable, readTable } from "@synth/tabular"
import { makeRandom, type SynthTable, synthTableFromArrow } from "@synth/synth"
import { Effect, Result, Stream } from "effect"
import { readFileSync, writeFileSync } from "node:fs"

export const mib = (bytes: number) => +(bytes / 2 ** 20).toFixed(1)

/** The process's resident memory now (VmRSS) or its high-water mark (VmHWM); Node's rss off Linux. */
export const statusBytes = (field: "VmHWM" | "VmRSS"): number => {
  try {
    const match = readFileSync("/proc/self/status", "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))
    return match ? Number(match[1]) * 1024 : process.memoryUsage().rss
  } catch {
    return process.memoryUsage().rss
  }
}

/** Resets VmHWM to the current RSS where Linux allows it. */
export const resetPeak = () => {
  try {
    writeFileSync("/proc/self/clear_refs", "5")
  } catch {
    // Not Linux, or not allowed: the peak then covers the whole run so far.
  }
}

export const timed = <A>(run: () => A): { result: A; ms: number } => {
  const started = performance.now()
  const result = run()
  return { result, ms: Math.round(performance.now() - started) }
}

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

export const loadCsv = (path: string): Promise<SynthTable> =>
  Effect.runPromise(
    Effect.flatMap(ingestTable(() => Stream.make(new Uint8Array(readFileSync(path)))), ({ table }) => readTable(table)).pipe(
      Effect.map((table) => Result.getOrThrow(synthTableFromArrow(table)))
    )
  )

/** `rows` rows: a 1,000-category store (skewed frequencies), an amount that depends on it, a small count. */
export const thousandCategories = (rows: number): SynthTable => {
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
