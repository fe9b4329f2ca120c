import { describe, expect, it } from "vitest"
import { accuracy, f1, meanAbsoluteError, r2, rocAuc } from "./metrics.ts"
import { referenceFixture } from "./testing/referenceFixture.ts"

const { binary, multiclass, regression } = referenceFixture.metrics
const ints = (values: ReadonlyArray<number>) => Int32Array.from(values)

describe("metrics agree with sklearn.metrics to 1e-9", () => {
  it("binary: accuracy, F1 of class 1, ROC AUC with tied scores", () => {
    const scores = Float64Array.from(binary.scores!.flatMap((s) => [1 - s, s]))
    expect(accuracy(ints(binary.truth), ints(binary.predicted))).toBeCloseTo(binary.accuracy!, 9)
    expect(f1(ints(binary.truth), ints(binary.predicted), 2)).toBeCloseTo(binary.f1!, 9)
    expect(rocAuc(ints(binary.truth), scores, 2)).toBeCloseTo(binary.roc_auc!, 9)
  })

  it("multiclass: accuracy, macro F1, one-vs-rest macro ROC AUC", () => {
    const probabilities = Float64Array.from(multiclass.probabilities!)
    expect(accuracy(ints(multiclass.truth), ints(multiclass.predicted))).toBeCloseTo(multiclass.accuracy!, 9)
    expect(f1(ints(multiclass.truth), ints(multiclass.predicted), 3)).toBeCloseTo(multiclass.f1!, 9)
    expect(rocAuc(ints(multiclass.truth), probabilities, 3)).toBeCloseTo(multiclass.roc_auc!, 9)
  })

  it("regression: R² and MAE", () => {
    const truth = Float64Array.from(regression.truth), predicted = Float64Array.from(regression.predicted)
    expect(r2(truth, predicted)).toBeCloseTo(regression.r2!, 9)
    expect(meanAbsoluteError(truth, predicted)).toBeCloseTo(regression.mae!, 9)
  })
})

describe("metric edge cases", () => {
  it("ROC AUC is NaN when the truth has one class, and 1 for a perfect ranking", () => {
    expect(rocAuc(ints([1, 1]), Float64Array.of(0.2, 0.8, 0.4, 0.6), 2)).toBeNaN()
    expect(rocAuc(ints([0, 1, 0, 1]), Float64Array.of(0.9, 0.1, 0.2, 0.8, 0.7, 0.3, 0.4, 0.6), 2)).toBe(1)
  })

  it("R² of a constant truth is 1 when matched and 0 otherwise, as sklearn's force_finite", () => {
    expect(r2(Float64Array.of(3, 3), Float64Array.of(3, 3))).toBe(1)
    expect(r2(Float64Array.of(3, 3), Float64Array.of(2, 3))).toBe(0)
  })

  it("F1 is 0 when class 1 is never predicted nor present", () => {
    expect(f1(ints([0, 0]), ints([0, 0]), 2)).toBe(0)
  })
})
