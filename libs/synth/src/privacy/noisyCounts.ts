import type { Random } from "../random.ts"
import { discreteLaplace, selectionThreshold } from "./discreteLaplace.ts"
import type { CategoriesRelease, CountRelease, HistogramRelease, PrivacyLedger } from "./ledger.ts"

/**
 * The releases that are counts: each row adds one to exactly one count of a release, so two-sided geometric noise
 * of parameter ε on every count makes the whole release ε-DP (a histogram's cells are disjoint). Each function
 * records its release in the ledger before returning it: there is no way to use one without it being accounted.
 */

/** A count (the table's rows) with noise: ε-DP. Not clamped: a negative release is what the noise said. */
export const noisyCount = (ledger: PrivacyLedger, statistic: string, count: number, epsilon: number, random: Random): CountRelease =>
  ledger.record({ _tag: "count", statistic, epsilon, delta: 0, count: count + discreteLaplace(epsilon, random) })

/** Which bin of `edges` (ascending; bin i is [edges[i], edges[i + 1])) holds a value, clamped into the outer bins. */
export const binOf = (edges: ReadonlyArray<number>, value: number): number => {
  let low = 0
  let high = edges.length - 2
  while (low < high) {
    const middle = (low + high + 1) >>> 1
    if (edges[middle]! <= value) low = middle
    else high = middle - 1
  }
  return low
}

/**
 * A numeric column counted in fixed bins (a function of its type, never of its values) and its missing values counted
 * in one more cell, each count with noise: ε-DP.
 */
export const noisyHistogram = (
  ledger: PrivacyLedger,
  column: string,
  values: ArrayLike<number>,
  missing: number,
  edges: ReadonlyArray<number>,
  epsilon: number,
  random: Random
): HistogramRelease => {
  const counts = new Array<number>(edges.length - 1).fill(0)
  for (let i = 0; i < values.length; i++) counts[binOf(edges, values[i]!)]! += 1
  return ledger.record({
    _tag: "histogram",
    column,
    epsilon,
    delta: 0,
    edges: [...edges],
    counts: counts.map((count) => count + discreteLaplace(epsilon, random)),
    missing: missing + discreteLaplace(epsilon, random)
  })
}

export interface LabelCounts {
  /** How many rows hold each label that occurs (a string column), or each public label (a boolean's, 0 included). */
  readonly counts: ReadonlyMap<string, number>
  readonly missing: number
  /** Whether the labels are public (a boolean's) rather than read from the data (a string column's). */
  readonly public: boolean
}

/**
 * A categorical column's labels and missing values with noisy counts.
 * - Public labels (a boolean's "false" and "true"; δ must be 0): every label is released with its noisy count: ε-DP.
 * - Private labels (a string column's): only the labels that occur are counted, and a label is released only when
 *   its noisy count reaches the selection threshold for (ε, δ): a label held by one row (absent from the neighbouring
 *   table) is released with probability at most δ, the others' counts are ε-DP, so the release is (ε, δ)-DP.
 * The missing cell is public (every table can have missing values): always released.
 * Labels are counted and released in sorted order, never in the data's order.
 */
export const noisyCategories = (
  ledger: PrivacyLedger,
  column: string,
  labels: LabelCounts,
  epsilon: number,
  delta: number,
  random: Random
): CategoriesRelease => {
  if (labels.public !== (delta === 0)) throw new RangeError(`column ${column}: public labels spend no δ, labels from the data must spend some`)
  const threshold = labels.public ? null : selectionThreshold(epsilon, delta)
  const released: Array<string> = []
  const counts: Array<number> = []
  for (const label of [...labels.counts.keys()].sort()) {
    const noisy = labels.counts.get(label)! + discreteLaplace(epsilon, random)
    if (threshold !== null && noisy < threshold) continue
    released.push(label)
    counts.push(noisy)
  }
  return ledger.record({
    _tag: "categories",
    column,
    epsilon,
    delta,
    labels: released,
    counts,
    missing: labels.missing + discreteLaplace(epsilon, random),
    threshold
  })
}
