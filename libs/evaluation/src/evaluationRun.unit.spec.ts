import { describe, expect, it } from "vitest"
import { evaluationRun } from "./evaluationRun.ts"
import { loadTable } from "./statistical/testing/fixtures.ts"

const options = {
  sampleSize: 1000,
  seed: 3,
  mlUtility: { algorithms: ["random_forest", "xgboost"], test_size: 0.25, cross_validation_folds: 3, random_state: 5 }
} as const

describe("evaluationRun", () => {
  it("runs every part on penguins against its synthetic sample, with a holdout, the same way each time", async () => {
    const training = await loadTable("privacy_training.csv")
    const synthetic = await loadTable("privacy_synthetic.csv")
    const holdout = await loadTable("privacy_holdout.csv")
    const first = evaluationRun(training, synthetic, holdout, options)
    const again = evaluationRun(training, synthetic, holdout, options)
    expect(JSON.stringify(again)).toBe(JSON.stringify(first))

    expect(first.rows).toEqual({ real: training.rowCount, synthetic: synthetic.rowCount, holdout: holdout.rowCount })
    expect(first.summary.overallScore).toBe(first.statistical.quality.score)
    expect(first.privacy.membershipInference).not.toBeNull()
    expect(first.diagnostic).toBeDefined()
    const utility = first.mlUtility
    expect(utility !== null && "algorithms" in utility && utility.algorithms.map((a) => a.algorithm)).toEqual(["random_forest", "xgboost"])

    expect(first.distributions.map((distribution) => [distribution.column, distribution.kind])).toEqual(
      training.columns.map((column) => [column.name, column.kind === "continuous" ? "numeric" : "categorical"])
    )
    for (const distribution of first.distributions) {
      const sides = distribution.kind === "numeric"
        ? [distribution.real, distribution.synthetic].map((side) => side.below + side.above + side.missing + side.bins.reduce((a, b) => a + b, 0))
        : [distribution.real, distribution.synthetic].map((side) => side.other + side.missing + side.categories.reduce((a, b) => a + b, 0))
      for (const total of sides) expect(total).toBeCloseTo(1, 9)
    }
    const numeric = training.columns.filter((column) => column.kind === "continuous").map((column) => column.name)
    expect(first.correlations.columns).toEqual(numeric)
    expect(first.correlations.real).toHaveLength(numeric.length)
    expect(first.correlations.synthetic.every((row) => row.length === numeric.length)).toBe(true)
  }, 120_000)

  it("leaves the holdout metrics out without a holdout, and says why ML utility was skipped", async () => {
    const training = await loadTable("privacy_training.csv")
    const synthetic = await loadTable("privacy_synthetic.csv")
    const result = evaluationRun(training, synthetic, null, {
      ...options,
      mlUtility: { ...options.mlUtility, target_column: "no such column" }
    })
    expect(result.privacy.membershipInference).toBeNull()
    expect(result.rows.holdout).toBeNull()
    expect(result.mlUtility).toEqual({ skipped: 'target_column "no such column" is not a column of the real table' })
  }, 60_000)
})
