import { type QualityReport, sharedLabelIds } from "@synth/synth"
import { chiSquareTest } from "./chiSquareTest.ts"
import { type ColumnPair, ksSample, presentValues } from "./columnValues.ts"
import { ksTest } from "./ksTest.ts"
import { normalisedWasserstein, wassersteinDistance } from "./wasserstein.ts"

/** A numerical, date or datetime column. Distances are in the column's unit: value, days (date), ms (datetime). */
export interface ContinuousColumnStatistics {
  readonly column: string
  readonly kind: "continuous"
  readonly type: "integer" | "float" | "date" | "datetime"
  /** scipy's ks_2samp on the present values (floats rounded to 14 decimals, as SDMetrics' KSComplement). */
  readonly ksStatistic: number | null
  readonly ksPValue: number | null
  readonly ksMethod: "exact" | "asymp" | null
  /** SDMetrics' KSComplement (1 − the KS statistic), the Quality Report's column-shape score. */
  readonly ksComplement: number | null
  /** scipy's wasserstein_distance on the present values. */
  readonly wassersteinDistance: number | null
  /** The Wasserstein distance divided by the real column's range (see normalisedWasserstein); lower is closer. */
  readonly normalisedWasserstein: number | null
  readonly realMin: number | null
  readonly realMax: number | null
  readonly realMissingShare: number
  readonly syntheticMissingShare: number
}

/** A string or boolean column. */
export interface CategoricalColumnStatistics {
  readonly column: string
  readonly kind: "categorical"
  readonly type: "string" | "boolean"
  /** SDMetrics' CSTest: scipy's chisquare on relative frequencies (see chiSquareTest). */
  readonly chiSquareStatistic: number | null
  readonly chiSquarePValue: number | null
  /** SDMetrics' TVComplement, the Quality Report's column-shape score. */
  readonly tvComplement: number | null
  /**
   * Total variation distance ½·Σ|p_real − p_synthetic| over the present values: 1 − tvComplement (SDMetrics counts a
   * value only the synthetic column has as 1e-6 in the real one).
   */
  readonly tvDistance: number | null
  /** Real categories the synthetic column never produces. */
  readonly categoriesNotSynthesised: ReadonlyArray<string>
  /** Synthetic categories the real column does not have. */
  readonly categoriesNotInReal: ReadonlyArray<string>
  /** The category whose share of present values differs most between the tables; null when a column is all missing. */
  readonly largestFrequencyGap: { readonly category: string; readonly real: number; readonly synthetic: number } | null
  readonly realMissingShare: number
  readonly syntheticMissingShare: number
}

export type ColumnStatistics = ContinuousColumnStatistics | CategoricalColumnStatistics

const orNull = (value: number) => (Number.isNaN(value) ? null : value)
const share = (count: number, total: number) => (total === 0 ? 0 : count / total)
const missingCount = (missing: Uint8Array | null) => (missing === null ? 0 : missing.reduce((sum, flag) => sum + flag, 0))

const continuousStatistics = (pair: Extract<ColumnPair, { kind: "continuous" }>, shapeScore: number | null): ContinuousColumnStatistics => {
  const real = ksSample(pair.real), synthetic = ksSample(pair.synthetic)
  const ks = ksTest(real, synthetic)
  const realValues = Float64Array.from(presentValues(pair.real)).sort()
  const syntheticValues = Float64Array.from(presentValues(pair.synthetic)).sort()
  const realMin = realValues.length === 0 ? null : realValues[0]!
  const realMax = realValues.length === 0 ? null : realValues[realValues.length - 1]!
  const distance = wassersteinDistance(realValues, syntheticValues)
  return {
    column: pair.name,
    kind: "continuous",
    type: pair.real.type,
    ksStatistic: ks?.statistic ?? null,
    ksPValue: ks?.pValue ?? null,
    ksMethod: ks?.method ?? null,
    ksComplement: shapeScore,
    wassersteinDistance: orNull(distance),
    normalisedWasserstein: realMin === null || realMax === null ? null : orNull(normalisedWasserstein(distance, realMax - realMin)),
    realMin,
    realMax,
    realMissingShare: share(missingCount(pair.real.missing), pair.real.values.length),
    syntheticMissingShare: share(missingCount(pair.synthetic.missing), pair.synthetic.values.length)
  }
}

const categoricalStatistics = (pair: Extract<ColumnPair, { kind: "categorical" }>, shapeScore: number | null): CategoricalColumnStatistics => {
  const ids = sharedLabelIds(pair.real, pair.synthetic)
  const test = chiSquareTest(ids.real, ids.synthetic, ids.labels.length)
  const realCounts = new Float64Array(ids.labels.length), syntheticCounts = new Float64Array(ids.labels.length)
  for (const id of ids.real) if (id >= 0) realCounts[id]!++
  for (const id of ids.synthetic) if (id >= 0) syntheticCounts[id]!++
  const missing = (codes: Int32Array) => codes.reduce((sum, id) => sum + (id < 0 ? 1 : 0), 0)
  const realPresent = ids.real.length - missing(ids.real), syntheticPresent = ids.synthetic.length - missing(ids.synthetic)
  let largestFrequencyGap: CategoricalColumnStatistics["largestFrequencyGap"] = null
  if (realPresent > 0 && syntheticPresent > 0) {
    ids.labels.forEach((category, id) => {
      const real = realCounts[id]! / realPresent, synthetic = syntheticCounts[id]! / syntheticPresent
      if (largestFrequencyGap === null || Math.abs(real - synthetic) > Math.abs(largestFrequencyGap.real - largestFrequencyGap.synthetic)) {
        largestFrequencyGap = { category, real, synthetic }
      }
    })
  }
  return {
    column: pair.name,
    kind: "categorical",
    type: pair.real.type,
    chiSquareStatistic: test?.statistic ?? null,
    chiSquarePValue: test?.pValue ?? null,
    tvComplement: shapeScore,
    tvDistance: shapeScore === null ? null : 1 - shapeScore,
    categoriesNotSynthesised: ids.labels.filter((_, id) => realCounts[id]! > 0 && syntheticCounts[id] === 0),
    categoriesNotInReal: ids.labels.filter((_, id) => realCounts[id] === 0 && syntheticCounts[id]! > 0),
    largestFrequencyGap,
    realMissingShare: share(missing(ids.real), ids.real.length),
    syntheticMissingShare: share(missing(ids.synthetic), ids.synthetic.length)
  }
}

/**
 * Per-column statistics of the real columns against their synthetic namesakes, in the real table's order. The
 * shape scores (KSComplement, TVComplement) come from the Quality Report, so both always agree.
 */
export const columnStatistics = (pairs: ReadonlyArray<ColumnPair>, quality: QualityReport): ReadonlyArray<ColumnStatistics> => {
  const shapes = new Map(quality.properties.column_shapes.details.map(({ column, score }) => [column, score]))
  return pairs.map((pair) =>
    pair.kind === "continuous" ? continuousStatistics(pair, shapes.get(pair.name) ?? null) : categoricalStatistics(pair, shapes.get(pair.name) ?? null)
  )
}
