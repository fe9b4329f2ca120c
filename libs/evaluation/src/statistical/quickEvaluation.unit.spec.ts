import { fitGaussianCopula, qualityReport } from "@synth/synth"
import { describe, expect, it } from "vitest"
import { diagnosticReport } from "../diagnostic/diagnosticReport.ts"
import { expectClose, loadTable, readFixture } from "./testing/fixtures.ts"
import { quickEvaluation } from "./quickEvaluation.ts"

const similarity = readFixture<{ cases: Record<string, { similarity: { ks_test: number; chi_square: number; wasserstein_distance: number } }> }>(
  "statistical.json"
).cases.penguins!.similarity

describe("quickEvaluation", () => {
  it("reports the quality score as the overall score, scipy's summary figures and SDMetrics' diagnostics", async () => {
    const [real, synthetic] = [await loadTable("penguins.csv"), await loadTable("penguins_synthetic.csv")]
    const result = quickEvaluation(real, synthetic)
    expect(result.overallScore).toBe(qualityReport(real, synthetic).score)
    expect(result.qualityLevel).toBe("Excellent")
    expectClose(result.statisticalSimilarity.ksTest, similarity.ks_test)
    expectClose(result.statisticalSimilarity.chiSquare, similarity.chi_square)
    expectClose(result.statisticalSimilarity.wassersteinDistance, similarity.wasserstein_distance)
    expect(result.diagnostic).toEqual(diagnosticReport(real, synthetic))
    expect(result.columns.map(({ column }) => column)).toEqual(real.columns.map(({ name }) => name))
    expect(result.recommendations).toEqual(result.recommendationDetails.map(({ message }) => message))
    // The resampled synthetic penguins put a few values outside the real ranges.
    expect(result.recommendations).toContainEqual(expect.stringMatching(/^column bill_depth_mm: 3\.7 % of synthetic values \(11\) lie outside the real range/))
  })

  it("is deterministic and recommends per column for a copula's output", async () => {
    const real = await loadTable("penguins.csv")
    const synthetic = fitGaussianCopula(real, { seed: 1 }).sample(real.rowCount, 2)
    const first = quickEvaluation(real, synthetic, { generator: "gaussian_copula" })
    expect(quickEvaluation(real, synthetic, { generator: "gaussian_copula" })).toEqual(first)
    for (const detail of first.recommendationDetails) {
      for (const column of detail.columns) expect(detail.message).toContain(column)
    }
    expect(first.overallScore).toBeGreaterThan(0.7)
  })
})
