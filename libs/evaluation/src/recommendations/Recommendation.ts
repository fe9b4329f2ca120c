import type { RecommendationKind } from "./recommendationKinds.ts"

/** One finding turned into an action: what is wrong, where, and what to do. */
export interface Recommendation {
  readonly area: "statistical" | "diagnostic" | "privacy"
  /** high: the data is unfit for its purpose until fixed; medium: worth fixing; low: worth knowing. */
  readonly severity: "high" | "medium" | "low"
  /** The columns it is about (empty for the table as a whole). */
  readonly columns: ReadonlyArray<string>
  /** The whole recommendation in one sentence: where, the figures, what it means and what to do. */
  readonly message: string
  /** The rule that found it: findings of one kind on several columns read as one recommendation (groupRecommendations). */
  readonly kind: RecommendationKind
  /** The figures of this finding alone, without the columns' names (e.g. "KS complement 0.62"). */
  readonly detail: string
  /** What to do, worded for every finding of its kind (the same for all of them in one evaluation). */
  readonly action: string
}

/** A recommendation as results stored before kinds existed hold it: without kind, detail and action. */
export type StoredRecommendation =
  & Omit<Recommendation, "kind" | "detail" | "action">
  & Partial<Pick<Recommendation, "kind" | "detail" | "action">>

/** The generator that produced the synthetic data, when known: the advice differs per model. */
export type GeneratorKind = "gaussian_copula" | "ctgan" | "tvae"

export const SEVERITY_ORDER = { high: 0, medium: 1, low: 2 } as const

/** Most severe first; the rules' order within a severity. */
export const bySeverity = <R extends StoredRecommendation>(recommendations: ReadonlyArray<R>): ReadonlyArray<R> =>
  recommendations.map((recommendation, index) => ({ recommendation, index }))
    .sort((a, b) => SEVERITY_ORDER[a.recommendation.severity] - SEVERITY_ORDER[b.recommendation.severity] || a.index - b.index)
    .map(({ recommendation }) => recommendation)

export const percent = (share: number): string => `${(share * 100).toFixed(1)} %`
export const figure = (value: number): string => value.toFixed(2)
export const quoted = (labels: ReadonlyArray<string>, limit = 5): string =>
  labels.slice(0, limit).map((label) => `"${label}"`).join(", ") + (labels.length > limit ? ` and ${labels.length - limit} more` : "")
