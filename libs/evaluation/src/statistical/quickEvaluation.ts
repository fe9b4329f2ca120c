import { type QualityReport, qualityReport, type SynthTable } from "@synth/synth"
import type { QualityLevel } from "@synth/stats"
import { type DiagnosticReport, diagnosticReport } from "../diagnostic/diagnosticReport.ts"
import { evaluationSummary } from "../recommendations/evaluationSummary.ts"
import type { GeneratorKind, Recommendation } from "../recommendations/Recommendation.ts"
import { type ColumnStatistics, columnStatistics } from "./columnStatistics.ts"
import { pairColumns } from "./columnValues.ts"
import { type StatisticalSimilarity, statisticalSimilarity } from "./statisticalSimilarity.ts"

export interface QuickEvaluationOptions {
  /** The generator's model, to tailor the recommendations. */
  readonly generator?: GeneratorKind
  /** Seeds the Quality Report's subsample of tables over 50,000 rows (contingency pairs). */
  readonly seed?: number
}

export interface QuickEvaluation {
  /** The Quality Report's score (SDMetrics' QualityReport: mean of Column Shapes and Column Pair Trends), 0 … 1. */
  readonly overallScore: number | null
  readonly qualityLevel: QualityLevel | null
  readonly statisticalSimilarity: StatisticalSimilarity
  /** Recommendation messages, most severe first (each names its columns and an action). */
  readonly recommendations: ReadonlyArray<string>
  readonly recommendationDetails: ReadonlyArray<Recommendation>
  readonly columns: ReadonlyArray<ColumnStatistics>
  readonly quality: QualityReport
  readonly diagnostic: DiagnosticReport
}

/**
 * The quick evaluation of a generator's output: the quality score, the three summary figures, per-column details,
 * the (cheap) validity diagnostics, and recommendations from both. Deterministic for a given seed.
 */
export const quickEvaluation = (real: SynthTable, synthetic: SynthTable, options: QuickEvaluationOptions = {}): QuickEvaluation => {
  const quality = qualityReport(real, synthetic, { seed: options.seed ?? 0 })
  const columns = columnStatistics(pairColumns(real, synthetic), quality)
  const diagnostic = diagnosticReport(real, synthetic)
  const summary = evaluationSummary({ statistical: { quality, columns }, diagnostic }, options.generator)
  return {
    overallScore: summary.overallScore,
    qualityLevel: summary.qualityLevel,
    statisticalSimilarity: statisticalSimilarity(columns),
    recommendations: summary.recommendations.map(({ message }) => message),
    recommendationDetails: summary.recommendations,
    columns,
    quality,
    diagnostic
  }
}
