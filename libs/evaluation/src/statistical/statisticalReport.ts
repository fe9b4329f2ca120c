import { type ColumnPairDetail, type QualityOptions, type QualityReport, qualityReport, type SynthTable } from "@synth/synth"
import { type ColumnStatistics, columnStatistics } from "./columnStatistics.ts"
import { pairColumns } from "./columnValues.ts"
import { type StatisticalSimilarity, statisticalSimilarity } from "./statisticalSimilarity.ts"

export interface StatisticalReport {
  /** SDMetrics' QualityReport (default thresholds): the overall score, column shapes and the pairs that count. */
  readonly quality: QualityReport
  readonly similarity: StatisticalSimilarity
  readonly columns: ReadonlyArray<ColumnStatistics>
  /**
   * Every column pair's CorrelationSimilarity (two continuous columns) or ContingencySimilarity (otherwise), with
   * the thresholds at 0, so pairs that the quality score leaves out (weakly related in the real data) are shown too.
   */
  readonly pairs: ReadonlyArray<ColumnPairDetail>
}

/**
 * The statistical part of an evaluation run: the Quality Report, per-column tests (KS, chi-square, Wasserstein, TV
 * distance) and every pair's correlation or contingency similarity. Columns are matched by name; the real table's
 * types decide the metrics.
 */
export const statisticalReport = (real: SynthTable, synthetic: SynthTable, options: QualityOptions = {}): StatisticalReport => {
  const pairs = pairColumns(real, synthetic)
  const quality = qualityReport(real, synthetic, options)
  const columns = columnStatistics(pairs, quality)
  const everyPair = qualityReport(real, synthetic, { ...options, realCorrelationThreshold: 0, realAssociationThreshold: 0 })
  return { quality, similarity: statisticalSimilarity(columns), columns, pairs: everyPair.properties.column_pair_trends.details }
}
