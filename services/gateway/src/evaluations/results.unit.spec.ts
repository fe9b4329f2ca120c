import { describe, expect, it } from "vitest"
import { quickResult, safeToShareOf, shownResults, snakeCase, snakeKeys } from "./results.ts"

const evaluationId = "01900000-0000-7000-8000-0000000000e1"
const generatorId = "01900000-0000-7000-8000-0000000000a1"

const storedQuick = {
  overallScore: 0.82,
  qualityLevel: "Good",
  statisticalSimilarity: { ksTest: 0.9, chiSquare: 0.97, wassersteinDistance: 0.03 },
  recommendations: ["All good."],
  recommendationDetails: [{ area: "statistical", severity: "low", columns: [], message: "All good." }],
  columns: [
    { column: "bodyMass", kind: "continuous", type: "float", ksStatistic: 0.1, ksPValue: 0.5, normalisedWasserstein: 0.03 },
    { column: "species", kind: "categorical", type: "string", chiSquarePValue: 0.97, largestFrequencyGap: { category: "Adelie", real: 0.4, synthetic: 0.38 } }
  ],
  quality: { score: 0.82, properties: { column_shapes: { score: 0.9, details: [] } } }
}

describe("results shaping", () => {
  it("turns camelCase keys into snake_case", () => {
    expect(["ksPValue", "chiSquarePValue", "mlUtility", "r2", "f1", "column_shapes", "dcrBaselineProtection", "rocAUCScore"].map(snakeCase))
      .toEqual(["ks_p_value", "chi_square_p_value", "ml_utility", "r2", "f1", "column_shapes", "dcr_baseline_protection", "roc_auc_score"])
  })

  it("converts keys deeply, never values", () => {
    expect(snakeKeys({ realRows: 1, nested: [{ tvComplement: 0.5, column: "camelName" }], empty: null }))
      .toEqual({ real_rows: 1, nested: [{ tv_complement: 0.5, column: "camelName" }], empty: null })
  })

  it("answers the spec's quick evaluation result with the columns in snake_case", () => {
    expect(quickResult(evaluationId, generatorId, storedQuick)).toEqual({
      evaluation_id: evaluationId,
      generator_id: generatorId,
      quality_level: "Good",
      overall_score: 0.82,
      statistical_similarity: { ks_test: 0.9, chi_square: 0.97, wasserstein_distance: 0.03 },
      recommendations: ["All good."],
      columns: [
        { column: "bodyMass", kind: "continuous", type: "float", ks_statistic: 0.1, ks_p_value: 0.5, normalised_wasserstein: 0.03 },
        { column: "species", kind: "categorical", type: "string", chi_square_p_value: 0.97, largest_frequency_gap: { category: "Adelie", real: 0.4, synthetic: 0.38 } }
      ]
    })
  })

  it("shows a quick evaluation's stored results in snake_case", () => {
    const shown = shownResults("quick", storedQuick)
    expect(Object.keys(shown)).toEqual(["overall_score", "quality_level", "statistical_similarity", "recommendations", "recommendation_details", "columns", "quality"])
  })

  it("lifts a run's summary to the top", () => {
    const stored = {
      rows: { real: 10, synthetic: 10, holdout: null },
      statistical: { quality: { score: 0.7 }, columns: [] },
      diagnostic: { score: 1 },
      mlUtility: { targetColumn: "species", algorithms: [{ algorithm: "random_forest", utilityRatio: 0.9 }] },
      privacy: { score: 0.8, dcrBaselineProtection: { score: 0.7 } },
      summary: { overallScore: 0.7, qualityLevel: "Good", recommendations: [{ area: "privacy", severity: "high", columns: ["a"], message: "Do X." }] },
      distributions: [],
      correlations: { columns: [], real: [], synthetic: [] }
    }
    const shown = shownResults("run", stored)
    expect(shown).toEqual({
      overall_score: 0.7,
      quality_level: "Good",
      recommendations: ["Do X."],
      recommendation_details: [{ area: "privacy", severity: "high", columns: ["a"], message: "Do X." }],
      rows: { real: 10, synthetic: 10, holdout: null },
      statistical: { quality: { score: 0.7 }, columns: [] },
      diagnostic: { score: 1 },
      ml_utility: { target_column: "species", algorithms: [{ algorithm: "random_forest", utility_ratio: 0.9 }] },
      privacy: { score: 0.8, dcr_baseline_protection: { score: 0.7 } },
      distributions: [],
      correlations: { columns: [], real: [], synthetic: [] }
    })
  })

  it("reads the privacy checks' verdict of a shown run; none for results stored before the checks", () => {
    const shown = (verdict: unknown) => shownResults("run", {
      summary: { overallScore: 0.7, qualityLevel: "Good", recommendations: [] },
      privacy: { score: 0.8, ...(verdict === undefined ? {} : { verdict }) }
    })
    expect(safeToShareOf(shown({ safeToShare: false, failing: ["identifier_disclosure"], notRun: [], checks: [] }))).toBe(false)
    expect(safeToShareOf(shown({ safeToShare: true, failing: [], notRun: [], checks: [] }))).toBe(true)
    expect(safeToShareOf(shown(undefined))).toBeNull()
  })
})
