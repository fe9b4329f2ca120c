import type { ColumnType } from "../table.ts"
import { noiseFloor } from "./discreteLaplace.ts"
import type { HistogramRelease } from "./ledger.ts"

/**
 * A numeric column's approximate range from its noisy log-scale histogram (the approximate bounds of Google's
 * differential-privacy library and SmartNoise): bins whose edges are 0 and ±2^k, a function of the column's type
 * only; the range runs from the lowest to the highest bin whose noisy count reaches a threshold that an empty bin
 * reaches with probability at most FAILURE_PROBABILITY / bins. So one row alone (one person's outlier) almost never
 * widens it, and a bin far from the data is almost never taken for data. When no bin reaches the threshold (little
 * data, a small ε), the bin with the largest noisy count is the range. Everything here is computed from the release:
 * post-processing, free of further privacy cost.
 */

/** The chance that any empty bin passes the threshold. */
export const FAILURE_PROBABILITY = 1e-3

/** Powers of two per type: the smallest magnitude a bin resolves, and the largest it holds (beyond: the outer bins). */
const EXPONENTS: Record<Exclude<ColumnType, "boolean" | "string">, { readonly smallest: number; readonly largest: number }> = {
  float: { smallest: -20, largest: 63 },
  integer: { smallest: 0, largest: 63 },
  // Days since 1970: ±2^20 days is ±2,870 years.
  date: { smallest: 0, largest: 20 },
  // Milliseconds since 1970: ±2^46 ms is ±2,230 years.
  datetime: { smallest: 0, largest: 46 }
}

/** The bins' edges for a column of this type, ascending: −2^largest … −2^smallest, 0, 2^smallest … 2^largest. */
export const logEdges = (type: keyof typeof EXPONENTS): ReadonlyArray<number> => {
  const { largest, smallest } = EXPONENTS[type]
  const positive = Array.from({ length: largest - smallest + 1 }, (_, k) => 2 ** (smallest + k))
  return [...positive.map((edge) => -edge).reverse(), 0, ...positive]
}

export interface Range {
  readonly low: number
  readonly high: number
}

export const approximateRange = (release: HistogramRelease): Range => {
  const { counts, edges, epsilon } = release
  const threshold = noiseFloor(epsilon, FAILURE_PROBABILITY / counts.length)
  const first = counts.findIndex((count) => count >= threshold)
  if (first >= 0) {
    const last = counts.findLastIndex((count) => count >= threshold)
    return { low: edges[first]!, high: edges[last + 1]! }
  }
  const fullest = counts.reduce((best, count, bin) => (count > counts[best]! ? bin : best), 0)
  return { low: edges[fullest]!, high: edges[fullest + 1]! }
}
