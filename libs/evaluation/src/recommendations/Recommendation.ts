/** One finding turned into an action: what is wrong, where, and what to do. */
export interface Recommendation {
  readonly area: "statistical" | "diagnostic" | "privacy"
  /** high: the data is unfit for its purpose until fixed; medium: worth fixing; low: worth knowing. */
  readonly severity: "high" | "medium" | "low"
  /** The columns it is about (empty for the table as a whole). */
  readonly columns: ReadonlyArray<string>
  readonly message: string
}

/** The generator that produced the synthetic data, when known: the advice differs per model. */
export type GeneratorKind = "gaussian_copula" | "ctgan" | "tvae"

const SEVERITY_ORDER = { high: 0, medium: 1, low: 2 } as const

/** Most severe first; the rules' order within a severity. */
export const bySeverity = (recommendations: ReadonlyArray<Recommendation>): ReadonlyArray<Recommendation> =>
  recommendations.map((recommendation, index) => ({ recommendation, index }))
    .sort((a, b) => SEVERITY_ORDER[a.recommendation.severity] - SEVERITY_ORDER[b.recommendation.severity] || a.index - b.index)
    .map(({ recommendation }) => recommendation)

export const percent = (share: number): string => `${(share * 100).toFixed(1)} %`
export const figure = (value: number): string => value.toFixed(2)
export const quoted = (labels: ReadonlyArray<string>, limit = 5): string =>
  labels.slice(0, limit).map((label) => `"${label}"`).join(", ") + (labels.length > limit ? ` and ${labels.length - limit} more` : "")
