import { describe, expect, it } from "vitest"
import { expectClose, readFixture } from "../statistical/testing/fixtures.ts"
import { sequence, type SequenceSpec } from "../statistical/testing/sequence.ts"
import { rocAuc } from "./rocAuc.ts"

const cases = readFixture<{ roc_auc: ReadonlyArray<{ positive: SequenceSpec; negative: SequenceSpec; auc: number }> }>("distributions.json").roc_auc

describe("rocAuc against sklearn's roc_auc_score", () => {
  for (const { positive, negative, auc } of cases) {
    it(`${positive.n} positive vs ${negative.n} negative scores${positive.floor ? " with ties" : ""}`, () => {
      expectClose(rocAuc(sequence(positive), sequence(negative)), auc, 1e-12)
    })
  }

  it("is 1 for perfectly separated scores, 0.5 for equal ones and 0 when reversed", () => {
    expect(rocAuc(Float64Array.of(3, 4), Float64Array.of(1, 2))).toBe(1)
    expect(rocAuc(Float64Array.of(1, 1), Float64Array.of(1))).toBe(0.5)
    expect(rocAuc(Float64Array.of(1), Float64Array.of(2, 3))).toBe(0)
  })
})
