import { makeRandom } from "@synth/synth"
import { describe, expect, it } from "vitest"
import type { FeatureMatrix } from "./features.ts"
import { fitRandomForest } from "./randomForest.ts"

const rows = 300
const random = makeRandom(5)
const a = Array.from({ length: rows }, () => random.next())
const b = Array.from({ length: rows }, () => Math.floor(random.next() * 4))
const matrix: FeatureMatrix = { rowCount: rows, featureCount: 2, values: Float64Array.from([...a, ...b]) }
const classes = Int32Array.from(a, (v, i) => (v > 0.6 ? 2 : b[i]! >= 2 ? 1 : 0))

describe("random forest", () => {
  it("is deterministic for a seed and depends on it", () => {
    const fit = (seed: number) => fitRandomForest(matrix, classes, { kind: "classification", classCount: 3 }, makeRandom(seed), { trees: 10, maxBins: 256 }).predict(matrix)
    expect(fit(1)).toEqual(fit(1))
    expect(fit(1)).not.toEqual(fit(2))
  })

  it("averages leaf class shares into probabilities that sum to 1 and fit a learnable rule", () => {
    const probabilities = fitRandomForest(matrix, classes, { kind: "classification", classCount: 3 }, makeRandom(1)).predict(matrix)
    let correct = 0
    for (let i = 0; i < rows; i++) {
      const p = probabilities.subarray(i * 3, i * 3 + 3)
      expect(p[0]! + p[1]! + p[2]!).toBeCloseTo(1, 12)
      if (p.indexOf(Math.max(...p)) === classes[i]) correct++
    }
    expect(correct / rows).toBeGreaterThan(0.98)
  })

  it("regresses: predictions on unseen rows follow the target", () => {
    const target = Float64Array.from(a, (v, i) => 10 * v + b[i]!)
    const model = fitRandomForest(matrix, target, { kind: "regression" }, makeRandom(1))
    const unseen: FeatureMatrix = { rowCount: 2, featureCount: 2, values: Float64Array.of(0.1, 0.9, 1, 3) }
    const [low, high] = model.predict(unseen)
    expect(low).toBeGreaterThan(0.5)
    expect(low).toBeLessThan(3.5)
    expect(high).toBeGreaterThan(10)
    expect(high).toBeLessThan(13)
  })
})
