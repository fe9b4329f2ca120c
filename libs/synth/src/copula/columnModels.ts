import type { Random } from "../random.ts"
import type { CategoricalColumn, ContinuousColumn } from "../table.ts"
import { encodeScore, type FrequencyIntervals, frequencyIntervals } from "./frequencyIntervals.ts"
import { constantMarginal } from "./marginals/constant.ts"
import type { Marginal, MarginalFamily } from "./marginals/Marginal.ts"
import { buildQuantileTable } from "./marginals/quantileTable.ts"
import { selectMarginal } from "./marginals/selectMarginal.ts"
import { FLOAT32_EPSILON } from "./marginals/truncatedNormal.ts"
import { learnRounding, type Rounding } from "../rounding.ts"
import { normalPpf } from "./special/normal.ts"

export interface ContinuousModel {
  readonly kind: "continuous"
  readonly name: string
  readonly type: ContinuousColumn["type"]
  readonly sourceFormat: string | null
  /** Over every present value of the column (not only the fitted rows): samples are clamped to it. */
  readonly min: number
  readonly max: number
  readonly rounding: Rounding
  readonly marginal: Marginal
  /** Each candidate family's KS statistic on the fitted rows. */
  readonly selection: Readonly<Partial<Record<MarginalFamily, number>>>
  /** The marginal's quantiles at the normal-score knots (quantileTable.ts). */
  readonly quantiles: Float64Array
  /** SDV's null column: intervals of code 0 (present) and 1 (missing); null when nothing is missing. */
  readonly missing: FrequencyIntervals | null
}

export interface CategoricalModel {
  readonly kind: "categorical"
  readonly name: string
  readonly type: CategoricalColumn["type"]
  readonly categories: ReadonlyArray<string>
  /** Intervals of the category codes that occur, −1 (missing) included when it occurs. */
  readonly intervals: FrequencyIntervals
}

export type ColumnModel = ContinuousModel | CategoricalModel

/** A fitted column and the normal scores of its latent variables on the fitted rows (NaN where unknown). */
export interface FittedColumn {
  readonly model: ColumnModel
  readonly scores: ReadonlyArray<Float64Array>
}

const clippedScore = (u: number) => normalPpf(Math.min(1 - FLOAT32_EPSILON, Math.max(FLOAT32_EPSILON, u)))

const intervalIndexOf = (intervals: FrequencyIntervals, offset: number, size: number): Int32Array => {
  const index = new Int32Array(size).fill(-1)
  intervals.codes.forEach((code, i) => {
    index[code + offset] = i
  })
  return index
}

export const fitContinuousColumn = (column: ContinuousColumn, rows: Int32Array, random: Random): FittedColumn => {
  const { values, missing } = column
  let min = Infinity, max = -Infinity, missingCount = 0
  for (let i = 0; i < values.length; i++) {
    if (missing !== null && missing[i] === 1) {
      missingCount++
      continue
    }
    min = Math.min(min, values[i]!)
    max = Math.max(max, values[i]!)
  }
  const presentCount = values.length - missingCount
  const isPresent = (row: number) => missing === null || missing[row] === 0
  let fitted = Float64Array.from(Array.from(rows).filter(isPresent), (row) => values[row]!)
  // A rarely present column can have no present value among the fitted rows: then fit on all of them.
  if (fitted.length === 0 && presentCount > 0) fitted = values.filter((_, row) => isPresent(row))
  const sorted = Float64Array.from(fitted).sort()
  const { marginal, statistics } = sorted.length === 0 ? { marginal: constantMarginal(0), statistics: {} } : selectMarginal(sorted)
  const missingIntervals = missingCount === 0 ? null : frequencyIntervals([0, 1], [presentCount, missingCount])
  const valueScores = new Float64Array(rows.length)
  const missingScores = missingIntervals === null ? null : new Float64Array(rows.length)
  const missingIndex = missingIntervals === null ? null : intervalIndexOf(missingIntervals, 0, 2)
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!
    const present = isPresent(row)
    valueScores[r] = !present ? NaN : marginal.family === "constant" ? 0 : clippedScore(marginal.cdf(values[row]!))
    if (missingScores !== null) missingScores[r] = encodeScore(missingIntervals!, missingIndex![present ? 0 : 1]!, random)
  }
  const model: ContinuousModel = {
    kind: "continuous",
    name: column.name,
    type: column.type,
    sourceFormat: column.sourceFormat,
    min: presentCount === 0 ? 0 : min,
    max: presentCount === 0 ? 0 : max,
    rounding: learnRounding(column.type, sorted),
    marginal,
    selection: statistics,
    quantiles: buildQuantileTable(marginal),
    missing: missingIntervals
  }
  return { model, scores: missingScores === null ? [valueScores] : [valueScores, missingScores] }
}

export const fitCategoricalColumn = (column: CategoricalColumn, rows: Int32Array, random: Random): FittedColumn => {
  const size = column.categories.length
  // Counted over every row: exact frequencies cost one pass and K + 1 counters whatever the row count.
  const counts = new Float64Array(size + 1)
  for (let i = 0; i < column.codes.length; i++) counts[column.codes[i]! + 1]!++
  const intervals = frequencyIntervals(Array.from({ length: size + 1 }, (_, i) => i - 1), Array.from(counts))
  const index = intervalIndexOf(intervals, 1, size + 1)
  const scores = new Float64Array(rows.length)
  for (let r = 0; r < rows.length; r++) scores[r] = encodeScore(intervals, index[column.codes[rows[r]!]! + 1]!, random)
  return {
    model: { kind: "categorical", name: column.name, type: column.type, categories: column.categories, intervals },
    scores: [scores]
  }
}
