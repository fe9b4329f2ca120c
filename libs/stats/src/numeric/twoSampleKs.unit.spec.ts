import { describe, expect, it } from "vitest"
import { twoSampleKsStatistic } from "./twoSampleKs.ts"

const ks = (a: ReadonlyArray<number>, b: ReadonlyArray<number>) => twoSampleKsStatistic(Float64Array.from(a), Float64Array.from(b))

describe("twoSampleKsStatistic", () => {
  it("is 0 for equal samples and 1 for samples that do not overlap", () => {
    expect(ks([1, 2, 3], [1, 2, 3])).toBe(0)
    expect(ks([1, 2], [3, 4, 5])).toBe(1)
  })

  it("is the largest gap between the two empirical distribution functions", () => {
    // F_a − F_b at 1, 2, 3, 4: 1/2 − 0, 1 − 1/4, 1 − 3/4, 1 − 1.
    expect(ks([1, 2], [2, 3, 3, 4])).toBe(0.75)
  })

  it("advances both samples past a tie together", () => {
    // Stepping one side at a time would see 1 − 0 at the shared value 5.
    expect(ks([5], [5])).toBe(0)
    expect(ks([1, 5, 5], [5, 5, 9])).toBeCloseTo(1 / 3, 15)
  })
})
