import { EvaluationId, GeneratorId, type QuickEvaluationResult } from "@synth/contracts"
import { Schema } from "effect"

/** `ksPValue` → `ks_p_value`, `chiSquarePValue` → `chi_square_p_value`; snake_case and digits stay as they are. */
export const snakeCase = (key: string) =>
  key.replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2").replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase()

/**
 * The stored results with every object key in snake_case. Safe for these results: their keys are field and metric
 * names, never data (column names and category labels are values, e.g. `{column: "sepalLength"}`).
 */
export const snakeKeys = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(snakeKeys)
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [snakeCase(key), snakeKeys(inner)]))
  }
  return value
}

const Score = Schema.NullOr(Schema.Number)

/** The members of @synth/evaluation's QuickEvaluation the quick answer is made of. */
const StoredQuick = Schema.Struct({
  overallScore: Score,
  qualityLevel: Schema.NullOr(Schema.String),
  statisticalSimilarity: Schema.Struct({ ksTest: Score, chiSquare: Score, wassersteinDistance: Score }),
  recommendations: Schema.Array(Schema.String),
  columns: Schema.Array(Schema.Record(Schema.String, Schema.Unknown))
})

/** The summary of @synth/evaluation's EvaluationResults, lifted to the top of a run's results. */
const StoredRunSummary = Schema.Struct({
  summary: Schema.Struct({
    overallScore: Score,
    qualityLevel: Schema.NullOr(Schema.String),
    recommendations: Schema.Array(Schema.Struct({ message: Schema.String }))
  })
})

/** The spec's quick evaluation result (plus evaluation_id and the columns) of a stored QuickEvaluation. */
export const quickResult = (evaluationId: string, generatorId: string, stored: unknown): QuickEvaluationResult => {
  const quick = Schema.decodeUnknownSync(StoredQuick)(stored)
  return {
    evaluation_id: EvaluationId.make(evaluationId),
    generator_id: GeneratorId.make(generatorId),
    quality_level: quick.qualityLevel,
    overall_score: quick.overallScore,
    statistical_similarity: {
      ks_test: quick.statisticalSimilarity.ksTest,
      chi_square: quick.statisticalSimilarity.chiSquare,
      wasserstein_distance: quick.statisticalSimilarity.wassersteinDistance
    },
    recommendations: quick.recommendations,
    columns: quick.columns.map((column) => snakeKeys(column) as Record<string, unknown>)
  }
}

/**
 * A stored result as GET /evaluations/{id} shows it: a quick evaluation's keys in snake_case; a run's with its
 * summary lifted to the top (overall_score, quality_level, recommendations as strings, recommendation_details).
 */
export const shownResults = (kind: "quick" | "run", stored: unknown): Record<string, unknown> => {
  if (kind === "quick") return snakeKeys(stored) as Record<string, unknown>
  const { summary } = Schema.decodeUnknownSync(StoredRunSummary)(stored)
  const { summary: _summary, ...parts } = snakeKeys(stored) as Record<string, unknown>
  return {
    overall_score: summary.overallScore,
    quality_level: summary.qualityLevel,
    recommendations: summary.recommendations.map(({ message }) => message),
    recommendation_details: (_summary as { readonly recommendations: unknown }).recommendations,
    ...parts
  }
}

/**
 * Whether a run's output is safe to share by its privacy checks (results as GET shows them, snake_case); null for
 * results stored before the checks existed.
 */
export const safeToShareOf = (shown: Record<string, unknown>): boolean | null => {
  const verdict = (shown["privacy"] as { readonly verdict?: { readonly safe_to_share?: unknown } } | undefined)?.verdict
  return typeof verdict?.safe_to_share === "boolean" ? verdict.safe_to_share : null
}
