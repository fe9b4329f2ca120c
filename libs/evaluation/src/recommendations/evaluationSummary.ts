import { qualityLevel, type QualityLevel } from "@synth/stats"
import type { DiagnosticReport } from "../diagnostic/diagnosticReport.ts"
import type { PrivacyReport } from "../privacy/privacyReport.ts"
import type { QualityReport } from "@synth/synth"
import type { ColumnStatistics } from "../statistical/columnStatistics.ts"
import type { EvaluatedColumn } from "../columns/evaluatedColumns.ts"
import { columnTreatmentRecommendations } from "./columnTreatmentRecommendations.ts"
import { diagnosticRecommendations } from "./diagnosticRecommendations.ts"
import { privacyRecommendations } from "./privacyRecommendations.ts"
import { bySeverity, type GeneratorKind, type Recommendation } from "./Recommendation.ts"
import { statisticalRecommendations } from "./statisticalRecommendations.ts"

export interface EvaluationSummary {
  /** The Quality Report's score (SDMetrics-equivalent), 0 … 1; null when nothing could be scored. */
  readonly overallScore: number | null
  /** The spec's bands on the overall score: Excellent from 0.9, Good from 0.7, Fair from 0.5, else Poor. */
  readonly qualityLevel: QualityLevel | null
  /** Most severe first. */
  readonly recommendations: ReadonlyArray<Recommendation>
}

/**
 * What the user reads when no rule fired: which checks ran, so "nothing found" is not mistaken for "nothing done".
 * Without the privacy part it speaks of quality only: nothing was measured about sharing.
 */
const allClear = (checks: ReadonlyArray<string>, privacyChecked: boolean): Recommendation => ({
  area: "statistical",
  severity: "low",
  columns: [],
  kind: "no_issue",
  detail: `checks run: ${checks.join(", ")}`,
  action: privacyChecked ? "use the synthetic data as it is" : "run a full evaluation to check privacy",
  message: privacyChecked
    ? `No issue found by the ${checks.join(", ")} checks: the synthetic data can be used as it is.`
    : `No issue found by the ${checks.join(", ")} checks: its quality needs no change. Privacy is not measured here; a full evaluation run checks it.`
})

/**
 * The overall score, level and recommendations of an evaluation from whichever parts ran. The score is the quality
 * score alone, as in a quick evaluation: validity and privacy are reported and recommended on, not averaged in.
 */
export const evaluationSummary = (
  parts: {
    /** A StatisticalReport, or the two parts of it the rules read. */
    readonly statistical: { readonly quality: QualityReport; readonly columns: ReadonlyArray<ColumnStatistics> }
    readonly diagnostic?: DiagnosticReport
    readonly privacy?: PrivacyReport
    /** The generator's columns with what the evaluation did with them; null or absent without roles. */
    readonly columns?: ReadonlyArray<EvaluatedColumn> | null
  },
  generator?: GeneratorKind
): EvaluationSummary => {
  const found = [
    ...statisticalRecommendations(parts.statistical.columns, parts.statistical.quality, generator),
    ...(parts.diagnostic === undefined ? [] : diagnosticRecommendations(parts.diagnostic)),
    ...(parts.privacy === undefined ? [] : privacyRecommendations(parts.privacy)),
    ...columnTreatmentRecommendations(parts.columns ?? null)
  ]
  const checks = ["statistical", ...(parts.diagnostic === undefined ? [] : ["validity"]), ...(parts.privacy === undefined ? [] : ["privacy"])]
  const score = parts.statistical.quality.score
  return {
    overallScore: score,
    qualityLevel: score === null ? null : qualityLevel(score),
    recommendations: found.length === 0 ? [allClear(checks, parts.privacy !== undefined)] : bySeverity(found)
  }
}
