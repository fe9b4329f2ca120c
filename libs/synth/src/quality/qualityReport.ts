import { makeRandom } from "../random.ts"
import type { SynthColumn, SynthTable } from "../table.ts"
import { fitRows } from "../copula/fitRows.ts"
import { isContinuous, nanosecondsOf, numbersOf, type SdType, sdTypeOf, sharedLabelIds } from "./columnViews.ts"
import { contingencySimilarity, type DiscreteColumn } from "./contingencySimilarity.ts"
import { correlationSimilarity } from "./correlationSimilarity.ts"
import { histogramBins } from "./discretize.ts"
import { ksComplement } from "./ksComplement.ts"
import { tvComplement } from "./tvComplement.ts"

export interface QualityOptions {
  /** SDMetrics' DEFAULT_REAL_CORRELATION_THRESHOLD (0.5): continuous pairs count when |r_real| exceeds it. */
  readonly realCorrelationThreshold?: number
  /** SDMetrics' DEFAULT_REAL_ASSOCIATION_THRESHOLD (0.3): other pairs count when the real Cramér's V exceeds it. */
  readonly realAssociationThreshold?: number
  /** SDMetrics' DEFAULT_NUM_ROWS_SUBSAMPLE (50,000) for contingency pairs; null never subsamples. */
  readonly subsampleRows?: number | null
  /** Seeds that subsample (SDMetrics draws it unseeded). */
  readonly seed?: number
}

export interface ColumnShapeDetail {
  readonly column: string
  readonly metric: "KSComplement" | "TVComplement"
  readonly score: number | null
}

export interface ColumnPairDetail {
  readonly column_1: string
  readonly column_2: string
  readonly metric: "CorrelationSimilarity" | "ContingencySimilarity"
  readonly score: number | null
  readonly real_correlation: number | null
  readonly synthetic_correlation: number | null
  readonly real_association: number | null
  /** Whether the pair counts towards the property's score (null: SDMetrics could not score it). */
  readonly meets_threshold: boolean | null
}

export interface QualityReport {
  readonly score: number | null
  readonly properties: {
    readonly column_shapes: { readonly score: number | null; readonly details: ReadonlyArray<ColumnShapeDetail> }
    readonly column_pair_trends: { readonly score: number | null; readonly details: ReadonlyArray<ColumnPairDetail> }
  }
}

const orNull = (value: number) => (Number.isNaN(value) ? null : value)
const meanOf = (values: ReadonlyArray<number | null>) => {
  const present = values.filter((value): value is number => value !== null)
  return present.length === 0 ? null : present.reduce((sum, value) => sum + value, 0) / present.length
}

interface Pair {
  readonly name: string
  readonly sdType: SdType
  readonly real: SynthColumn
  readonly synthetic: SynthColumn
}

/**
 * SDMetrics' single-table QualityReport (sdmetrics 0.32): Column Shapes (KSComplement for numerical and datetime
 * columns, TVComplement for categorical and boolean ones) and Column Pair Trends (CorrelationSimilarity, Pearson,
 * for two continuous columns; ContingencySimilarity otherwise, a continuous partner binned into 10 equal-width bins),
 * with its thresholds: only pairs whose real correlation (association) exceeds 0.5 (0.3) count. Each property's
 * score is the mean of its counted scores; the overall score the mean of the properties' (ignoring an empty one).
 * Columns are matched by name; the real table's types decide the metrics. Missing values: dropped by KS, TV and
 * correlation, a value of their own in contingency tables, as SDMetrics.
 */
export const qualityReport = (real: SynthTable, synthetic: SynthTable, options: QualityOptions = {}): QualityReport => {
  const correlationThreshold = options.realCorrelationThreshold ?? 0.5
  const associationThreshold = options.realAssociationThreshold ?? 0.3
  const subsampleRows = options.subsampleRows === undefined ? 50_000 : options.subsampleRows
  const byName = new Map(synthetic.columns.map((column) => [column.name, column]))
  const pairs: Array<Pair> = real.columns.map((column) => {
    const partner = byName.get(column.name)
    if (partner === undefined || partner.kind !== column.kind) {
      throw new Error(`the synthetic table has no ${column.kind} column "${column.name}" to compare with the real one`)
    }
    return { name: column.name, sdType: sdTypeOf(column), real: column, synthetic: partner }
  })

  const shapes = pairs.map(({ name, sdType, real: r, synthetic: s }): ColumnShapeDetail => {
    if (isContinuous(sdType)) {
      return { column: name, metric: "KSComplement", score: orNull(ksComplement(numbersOf(r), numbersOf(s), r.type === "float")) }
    }
    const ids = sharedLabelIds(r, s)
    return { column: name, metric: "TVComplement", score: orNull(tvComplement(ids.real, ids.synthetic, ids.labels.length)) }
  })

  const numbers = pairs.map(({ sdType, real: r, synthetic: s }) =>
    isContinuous(sdType) ? { real: nanosecondsOf(r, numbersOf(r)), synthetic: nanosecondsOf(s, numbersOf(s)) } : null
  )
  const discrete = pairs.map(({ sdType, real: r, synthetic: s }, index): { real: DiscreteColumn; synthetic: DiscreteColumn } => {
    const values = numbers[index] ?? null
    if (values !== null && isContinuous(sdType)) {
      return { real: { keys: histogramBins(values.real), size: 12 }, synthetic: { keys: histogramBins(values.synthetic), size: 12 } }
    }
    const ids = sharedLabelIds(r, s)
    const shift = (codes: Int32Array) => codes.map((id) => id + 1)
    return { real: { keys: shift(ids.real), size: ids.labels.length + 1 }, synthetic: { keys: shift(ids.synthetic), size: ids.labels.length + 1 } }
  })
  const subsample = subsampleRows !== null && Math.max(real.rowCount, synthetic.rowCount) > subsampleRows
  const random = makeRandom(options.seed ?? 0)
  const realRows = subsample ? fitRows(real.rowCount, subsampleRows, random.fork()) : null
  const syntheticRows = subsample ? fitRows(synthetic.rowCount, subsampleRows, random.fork()) : null

  const trends: Array<ColumnPairDetail> = []
  for (let i = 0; i < pairs.length; i++) {
    for (let j = i + 1; j < pairs.length; j++) {
      const first = pairs[i]!, second = pairs[j]!
      const names = { column_1: first.name, column_2: second.name }
      if (isContinuous(first.sdType) && isContinuous(second.sdType)) {
        const result = correlationSimilarity(numbers[i]!.real, numbers[j]!.real, numbers[i]!.synthetic, numbers[j]!.synthetic, correlationThreshold)
        trends.push({
          ...names,
          metric: "CorrelationSimilarity",
          score: orNull(result.score),
          real_correlation: orNull(result.real),
          synthetic_correlation: orNull(result.synthetic),
          real_association: null,
          meets_threshold: result.meetsThreshold
        })
        continue
      }
      const result = contingencySimilarity(
        [discrete[i]!.real, discrete[j]!.real],
        [discrete[i]!.synthetic, discrete[j]!.synthetic],
        associationThreshold,
        realRows,
        syntheticRows
      )
      trends.push({
        ...names,
        metric: "ContingencySimilarity",
        score: orNull(result.score),
        real_correlation: null,
        synthetic_correlation: null,
        real_association: orNull(result.realAssociation),
        meets_threshold: result.meetsThreshold
      })
    }
  }

  const shapesScore = meanOf(shapes.map(({ score }) => score))
  const trendsScore = meanOf(trends.filter(({ meets_threshold }) => meets_threshold === true).map(({ score }) => score))
  return {
    score: meanOf([shapesScore, trendsScore]),
    properties: {
      column_shapes: { score: shapesScore, details: shapes },
      column_pair_trends: { score: trendsScore, details: trends }
    }
  }
}
