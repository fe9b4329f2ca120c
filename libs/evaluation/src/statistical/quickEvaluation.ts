import { type QualityReport, qualityReport, type SynthTable } from "@synth/synth"
import type { QualityLevel } from "@synth/stats"
import { type EvaluatedColumn, evaluatedTables, expectedOutput, type GeneratorColumn } from "../columns/evaluatedColumns.ts"
import { type DiagnosticReport, diagnosticReport } from "../diagnostic/diagnosticReport.ts"
import { tableStructure } from "../diagnostic/tableStructure.ts"
import { evaluationSummary } from "../recommendations/evaluationSummary.ts"
import { groupRecommendations, type RecommendationGroup } from "../recommendations/groupRecommendations.ts"
import type { GeneratorKind, Recommendation } from "../recommendations/Recommendation.ts"
import { type ColumnStatistics, columnStatistics } from "./columnStatistics.ts"
import { pairColumns } from "./columnValues.ts"
import { type StatisticalSimilarity, statisticalSimilarity } from "./statisticalSimilarity.ts"

export interface QuickEvaluationOptions {
  /** The generator's model, to tailor the recommendations. */
  readonly generator?: GeneratorKind
  /** Seeds the Quality Report's subsample of tables over 50,000 rows (contingency pairs). */
  readonly seed?: number
  /** The generator's columns (roles, handlings): only learned columns are scored. Absent or null: every column. */
  readonly columns?: ReadonlyArray<GeneratorColumn> | null
}

export interface QuickEvaluation {
  /** The Quality Report's score (SDMetrics' QualityReport: mean of Column Shapes and Column Pair Trends), 0 … 1. */
  readonly overallScore: number | null
  readonly qualityLevel: QualityLevel | null
  readonly statisticalSimilarity: StatisticalSimilarity
  /** Recommendation messages, most severe first (each names its columns and an action). */
  readonly recommendations: ReadonlyArray<string>
  readonly recommendationDetails: ReadonlyArray<Recommendation>
  /** The same one per kind of finding, each naming its columns once. */
  readonly recommendationGroups: ReadonlyArray<RecommendationGroup>
  readonly columns: ReadonlyArray<ColumnStatistics>
  readonly quality: QualityReport
  readonly diagnostic: DiagnosticReport
  /** Every column of the generator's plan and what the evaluation did with it; null without roles (all scored). */
  readonly columnTreatments: ReadonlyArray<EvaluatedColumn> | null
}

/**
 * The quick evaluation of a generator's output: the quality score, the three summary figures, per-column details,
 * the (cheap) validity diagnostics, and recommendations from both, on the columns the generator learned (faked,
 * hashed and dropped ones are named, not scored). Deterministic for a given seed.
 */
export const quickEvaluation = (realTable: SynthTable, syntheticTable: SynthTable, options: QuickEvaluationOptions = {}): QuickEvaluation => {
  const tables = evaluatedTables(realTable, syntheticTable, options.columns)
  const { real, synthetic } = tables
  const quality = qualityReport(real, synthetic, { seed: options.seed ?? 0 })
  const columns = columnStatistics(pairColumns(real, synthetic), quality)
  const diagnostic = diagnosticReport(real, synthetic, tableStructure(expectedOutput(realTable, tables), syntheticTable, tables.replaced))
  const summary = evaluationSummary({ statistical: { quality, columns }, diagnostic, columns: tables.columns }, options.generator)
  return {
    overallScore: summary.overallScore,
    qualityLevel: summary.qualityLevel,
    statisticalSimilarity: statisticalSimilarity(columns),
    recommendations: summary.recommendations.map(({ message }) => message),
    recommendationDetails: summary.recommendations,
    recommendationGroups: groupRecommendations(summary.recommendations),
    columns,
    quality,
    diagnostic,
    columnTreatments: tables.columns
  }
}
