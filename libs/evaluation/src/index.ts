// @synth/evaluation: how close synthetic rows are to the real ones (statistics, diagnostics), how useful they are to
// train models (ML utility), and how much they reveal about the real rows (privacy).
export { type QuickEvaluation, quickEvaluation, type QuickEvaluationOptions } from "./statistical/quickEvaluation.ts"
export { type StatisticalReport, statisticalReport } from "./statistical/statisticalReport.ts"
export type { StatisticalSimilarity } from "./statistical/statisticalSimilarity.ts"
export type { CategoricalColumnStatistics, ColumnStatistics, ContinuousColumnStatistics } from "./statistical/columnStatistics.ts"
export { type KsTestResult, ksTest } from "./statistical/ksTest.ts"
export { type ChiSquareResult, chiSquareTest } from "./statistical/chiSquareTest.ts"
export { normalisedWasserstein, wassersteinDistance } from "./statistical/wasserstein.ts"

export { type DiagnosticReport, diagnosticReport, type ValidityDetail } from "./diagnostic/diagnosticReport.ts"
export { type BoundaryAdherence, boundaryAdherence } from "./diagnostic/boundaryAdherence.ts"
export { type CategoryAdherence, categoryAdherence } from "./diagnostic/categoryAdherence.ts"
export { type TableStructure, tableStructure } from "./diagnostic/tableStructure.ts"

export {
  type ColumnTreatment,
  type EvaluatedColumn,
  evaluatedTables,
  type EvaluatedTables,
  type GeneratorColumn
} from "./columns/evaluatedColumns.ts"

export { defaultRareThreshold, type ExactCopies, type PrivacyOptions, type PrivacyReport, privacyReport } from "./privacy/privacyReport.ts"
export { type ColumnDisclosure, type DisclosureRule, valueDisclosure } from "./privacy/valueDisclosure.ts"
export { type AttributeInference, attributeInference, type CapSummary } from "./privacy/attributeInference.ts"
export { capAttack, type CapScores } from "./privacy/categoricalCap.ts"
export { type AucInterval, aucInterval } from "./privacy/aucInterval.ts"
export {
  type CheckStatus,
  type PrivacyCheck,
  privacyCheckTitles,
  type PrivacyCheckName,
  type ShareVerdict,
  shareVerdict
} from "./privacy/shareVerdict.ts"
export { splitHoldout } from "./privacy/membership.ts"
export { type DcrBaselineProtection, dcrBaselineProtection } from "./privacy/dcrBaselineProtection.ts"
export { type DcrOverfittingProtection, dcrOverfittingProtection } from "./privacy/dcrOverfittingProtection.ts"
export { type NewRowSynthesis, newRowSynthesis } from "./privacy/newRowSynthesis.ts"
export { type NearestNeighbourRatio, nearestNeighbourRatio } from "./privacy/nearestNeighbourRatio.ts"
export {
  type MembershipInference,
  membershipInference,
  membershipInferenceMaxAuc,
  membershipInferenceMaxAucHigh
} from "./privacy/membershipInference.ts"
export { type ClosestRecords, closestRecordDistances } from "./privacy/closestRecords.ts"
export { randomBaseline } from "./privacy/randomBaseline.ts"
export { sampleRows } from "./privacy/sampleRows.ts"

export { type EvaluationSummary, evaluationSummary } from "./recommendations/evaluationSummary.ts"
export type { GeneratorKind, Recommendation, StoredRecommendation } from "./recommendations/Recommendation.ts"
export type { RecommendationKind } from "./recommendations/recommendationKinds.ts"
export {
  groupRecommendations,
  type RecommendationFinding,
  type RecommendationGroup
} from "./recommendations/groupRecommendations.ts"

export * from "./utility/index.ts"

export { type EvaluationResults, evaluationRun, type EvaluationRunOptions, type GeneratorPrivacy, type SkippedPart } from "./evaluationRun.ts"

export {
  type CategoricalDistribution,
  type ColumnDistribution,
  columnDistributions,
  type NumericDistribution
} from "./report/columnDistributions.ts"
export { type CorrelationMatrices, correlationMatrices } from "./report/correlationMatrices.ts"
export { reportContentSecurityPolicy } from "./report/contentSecurityPolicy.ts"
export { type EvaluationReportInput, renderEvaluationReport } from "./report/renderEvaluationReport.ts"
