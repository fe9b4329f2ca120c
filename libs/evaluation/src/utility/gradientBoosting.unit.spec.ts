import { describe, expect, it } from "vitest"
import type { FeatureMatrix } from "./features.ts"
import { baseMargins, type BoostingObjective, fitGradientBoosting } from "./gradientBoosting.ts"
import { referenceFixture } from "./testing/referenceFixture.ts"

const matrixOf = (columns: ReadonlyArray<ReadonlyArray<number>>): FeatureMatrix => ({ rowCount: columns[0]!.length, featureCount: columns.length, values: Float64Array.from(columns.flat()) })
const objectiveOf = (name: "binary" | "multiclass" | "regression"): BoostingObjective =>
  name === "regression" ? { kind: "squaredError" } : name === "binary" ? { kind: "binary" } : { kind: "multiclass", classCount: 3 }
const targetOf = (name: string, values: ReadonlyArray<number>) => (name === "regression" ? Float64Array.from(values) : Int32Array.from(values))

// Measured: probabilities within 3e-7 and regression predictions within 5e-7 of their range (float32 in XGBoost,
// float64 here); the bound leaves room for platform rounding, not for a different tree.
const tolerance = 1e-5

describe("gradient boosting matches xgboost 3.2 (hist, defaults) on the reference tables", () => {
  for (const reference of referenceFixture.xgboost) {
    it(reference.name, () => {
      const model = fitGradientBoosting(matrixOf(reference.train), targetOf(reference.objective, reference.trainTarget), objectiveOf(reference.objective))
      const predictions = model.predict(matrixOf(reference.test))
      const scale = reference.objective === "regression" ? Math.max(...reference.predictions) - Math.min(...reference.predictions) : 1
      expect(predictions.length).toBe(reference.predictions.length)
      const worst = Math.max(...reference.predictions.map((expected, i) => Math.abs(predictions[i]! - expected) / scale))
      expect(worst).toBeLessThan(tolerance)
    })

    it(`${reference.name}: base_score as XGBoost estimates it`, () => {
      const base = baseMargins(objectiveOf(reference.objective), targetOf(reference.objective, reference.trainTarget))
      const printed = JSON.parse(reference.baseScore.replace(/E/g, "e")) as ReadonlyArray<number>
      // XGBoost prints the binary intercept as a probability, the others in margin space.
      const expected = reference.objective === "binary" ? printed.map((p) => Math.log(p / (1 - p))) : printed
      expected.forEach((value, k) => expect(base[k]).toBeCloseTo(value, 5))
    })
  }
})

describe("gradient boosting", () => {
  const rows = 200
  const x = Array.from({ length: rows }, (_, i) => (i * 37) % 101)
  const matrix = matrixOf([x, x.map((v) => v % 7)])

  it("gives probabilities that sum to 1 and separate a learnable class", () => {
    const target = Int32Array.from(x, (v) => (v > 50 ? 1 : 0))
    const probabilities = fitGradientBoosting(matrix, target, { kind: "binary" }).predict(matrix)
    for (let i = 0; i < rows; i++) {
      expect(probabilities[i * 2]! + probabilities[i * 2 + 1]!).toBeCloseTo(1, 12)
      expect(probabilities[i * 2 + 1]! > 0.5).toBe(target[i] === 1)
    }
  })

  it("is deterministic", () => {
    const target = Float64Array.from(x, (v) => v * 2 + (v % 7))
    const fit = () => fitGradientBoosting(matrix, target, { kind: "squaredError" }).predict(matrix)
    expect(fit()).toEqual(fit())
  })
})
