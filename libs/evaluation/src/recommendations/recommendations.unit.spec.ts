import type { QualityReport } from "@synth/synth"
import { describe, expect, it } from "vitest"
import { diagnosticReport } from "../diagnostic/diagnosticReport.ts"
import type { PrivacyReport } from "../privacy/privacyReport.ts"
import type { CategoricalColumnStatistics, ContinuousColumnStatistics } from "../statistical/columnStatistics.ts"
import { loadTable } from "../statistical/testing/fixtures.ts"
import { diagnosticRecommendations } from "./diagnosticRecommendations.ts"
import { evaluationSummary } from "./evaluationSummary.ts"
import { privacyRecommendations } from "./privacyRecommendations.ts"
import { statisticalRecommendations } from "./statisticalRecommendations.ts"

const carat: ContinuousColumnStatistics = {
  column: "carat", kind: "continuous", type: "float", ksStatistic: 0.29, ksPValue: 0, ksMethod: "asymp", ksComplement: 0.71,
  wassersteinDistance: 0.3, normalisedWasserstein: 0.062, realMin: 0.2, realMax: 5.01, realMissingShare: 0, syntheticMissingShare: 0
}
const cut: CategoricalColumnStatistics = {
  column: "cut", kind: "categorical", type: "string", chiSquareStatistic: 0.2, chiSquarePValue: 0.9, tvComplement: 0.82, tvDistance: 0.18,
  categoriesNotSynthesised: ["Fair"], categoriesNotInReal: [], largestFrequencyGap: { category: "Ideal", real: 0.4, synthetic: 0.25 },
  realMissingShare: 0.1, syntheticMissingShare: 0
}
const quality = (details: QualityReport["properties"]["column_pair_trends"]["details"]): QualityReport => ({
  score: 0.8,
  properties: { column_shapes: { score: 0.8, details: [] }, column_pair_trends: { score: 0.8, details } }
})
const pair = {
  column_1: "carat", column_2: "price", metric: "CorrelationSimilarity" as const, score: 0.6, real_correlation: 0.92,
  synthetic_correlation: 0.12, real_association: null, meets_threshold: true
}

describe("statisticalRecommendations", () => {
  it("names the column, the figure and an action fitted to the generator", () => {
    const [shape] = statisticalRecommendations([carat], quality([]), "gaussian_copula")
    expect(shape).toMatchObject({ area: "statistical", severity: "medium", columns: ["carat"] })
    expect(shape!.message).toMatch(/^column carat: KS complement 0\.71, Wasserstein distance 6\.2 % of the real range — .*try ctgan or tvae/)
    expect(statisticalRecommendations([carat], quality([]), "ctgan")[0]!.message).toContain("train for more epochs")
    expect(statisticalRecommendations([{ ...carat, ksComplement: 0.6 }], quality([]))[0]!.severity).toBe("high")
  })

  it("flags category frequencies, lost categories and a missing share the generator did not keep", () => {
    const messages = statisticalRecommendations([cut], quality([])).map(({ message }) => message)
    expect(messages).toEqual([
      expect.stringMatching(/^column cut: TV complement 0\.82 \(most off: "Ideal" 40\.0 % of real rows vs 25\.0 % of synthetic\)/),
      expect.stringMatching(/^column cut: real categories "Fair" never appear/),
      expect.stringMatching(/^column cut: 10\.0 % missing in the real data but 0\.0 % in the synthetic data/)
    ])
  })

  it("flags a counted pair whose relationship is lost, and ignores pairs the quality score does not count", () => {
    const found = statisticalRecommendations([], quality([pair, { ...pair, column_2: "depth", meets_threshold: false }]))
    expect(found).toHaveLength(1)
    expect(found[0]).toMatchObject({ columns: ["carat", "price"], severity: "medium" })
    expect(found[0]!.message).toMatch(/^columns carat and price: real correlation 0\.92 but synthetic 0\.12/)
  })

  it("stays silent on columns that match", () => {
    expect(statisticalRecommendations([{ ...carat, ksComplement: 0.95 }], quality([{ ...pair, score: 0.97 }]))).toEqual([])
  })
})

describe("diagnosticRecommendations", () => {
  it("names out-of-range values with the real range, unknown categories and the structure drift", async () => {
    const report = diagnosticReport(await loadTable("mixed_real.csv"), await loadTable("mixed_broken.csv"))
    const messages = diagnosticRecommendations(report).map(({ message }) => message)
    expect(messages).toContainEqual(expect.stringMatching(/^column amount: 27\.1 % of synthetic values \(\d+\) lie outside the real range \[-?[\d.]+, [\d.]+\] — clamp/))
    expect(messages).toContainEqual(expect.stringMatching(/^column tier: 9\.5 % of synthetic values are not real categories \("platinum"\)/))
    expect(messages).toContainEqual(expect.stringMatching(/^column day: [\d.]+ % of synthetic values \(\d+\) lie outside the real range \[\d{4}-\d\d-\d\d, \d{4}-\d\d-\d\d\]/))
    expect(messages).toContainEqual(expect.stringMatching(/^column moment: .* \[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z, \d{4}-\d\d-\d\dT[\d:.]+Z\]/))
    expect(messages).toContainEqual(
      'table structure: missing "active"; extra "is_active"; "count" is float64 instead of Int64 — generate with the real table\'s schema (column names and types) so the synthetic table can replace it.'
    )
  })
})

describe("privacyRecommendations", () => {
  const report: PrivacyReport = {
    dcrBaselineProtection: { score: 0.4, medianDcrSynthetic: 0.02, medianDcrRandom: 0.05 },
    dcrOverfittingProtection: { score: 0.6, closerToTraining: 0.7, closerToHoldout: 0.3 },
    newRowSynthesis: { score: 0.9, newRows: 900, matchedRows: 100 },
    matchTolerance: 0.01,
    exactCopies: { share: 0.032, rows: 32 },
    nearestNeighbourRatio: { median: 0.7, mean: 0.65, shareBelowHalf: 0.2 },
    membershipInference: { auc: 0.8, members: 1000, nonMembers: 500 },
    score: 0.5,
    level: "Fair",
    rows: { training: 1000, synthetic: 1000, holdout: 500 }
  }

  it("quantifies copies, closeness, memorisation and the attack, each with an action", () => {
    const found = privacyRecommendations(report)
    expect(found.map(({ severity, message }) => [severity, message.split(" — ")[0]])).toEqual([
      ["high", "3.2 % of synthetic rows (32) copy a real row exactly"],
      ["medium", "6.8 % of synthetic rows (68) nearly copy a real row (every category equal, every number within 1.0 %)"],
      ["high", "70.0 % of synthetic rows are closer to the training rows than to unseen holdout rows"],
      ["high", "a distance-based membership-inference attack tells training rows from holdout rows with AUC 0.80 (0.5 is chance)"]
    ])
    expect(found.every(({ message }) => message.includes("differential privacy"))).toBe(true)
  })

  it("judges closeness by the random baseline only without a holdout", () => {
    const found = privacyRecommendations({ ...report, dcrOverfittingProtection: null, membershipInference: null })
    expect(found.map(({ message }) => message.split(" — ")[0])).toContain(
      "synthetic rows lie closer to real rows than random rows do (DCR baseline protection 0.40: median distance 0.02 vs 0.05)"
    )
  })

  it("stays silent on a private table", () => {
    expect(privacyRecommendations({
      ...report,
      dcrBaselineProtection: { score: 0.9, medianDcrSynthetic: 0.05, medianDcrRandom: 0.055 },
      dcrOverfittingProtection: { score: 1, closerToTraining: 0.5, closerToHoldout: 0.5 },
      newRowSynthesis: { score: 1, newRows: 1000, matchedRows: 0 },
      exactCopies: { share: 0, rows: 0 },
      membershipInference: { auc: 0.51, members: 1000, nonMembers: 500 }
    })).toEqual([])
  })
})

describe("evaluationSummary", () => {
  it("puts the most severe first and says which checks found nothing", () => {
    // The rules yield cut's (medium, low, medium) before carat's (high) and the pair's (medium).
    const summary = evaluationSummary({ statistical: { quality: quality([pair]), columns: [cut, { ...carat, ksComplement: 0.6 }] } })
    expect(summary.recommendations.map(({ severity, columns }) => `${severity} ${columns.join("+")}`)).toEqual([
      "high carat", "medium cut", "medium cut", "medium carat+price", "low cut"
    ])
    expect(summary).toMatchObject({ overallScore: 0.8, qualityLevel: "Good" })
    const clear = evaluationSummary({ statistical: { quality: quality([]), columns: [] } })
    expect(clear.recommendations.map(({ message }) => message)).toEqual(["No issue found by the statistical checks: the synthetic data can be used as it is."])
  })
})
