import { describe, expect, it } from "vitest"
import { meanAndSquaredDeviations } from "./squaredDeviations.ts"

describe("meanAndSquaredDeviations", () => {
  it("answers the mean and Σ(x − mean)²", () => {
    expect(meanAndSquaredDeviations(Float64Array.of(2, 4, 4, 4, 5, 5, 7, 9))).toEqual({ mean: 5, squares: 32 })
  })

  it("is exact where a one-pass Σx² − n·mean² loses everything to cancellation", () => {
    const { mean, squares } = meanAndSquaredDeviations(Float64Array.of(1e9 + 1, 1e9 + 2, 1e9 + 3))
    expect(mean).toBe(1e9 + 2)
    expect(squares).toBe(2)
  })

  it("has a NaN mean for no values", () => {
    expect(meanAndSquaredDeviations(new Float64Array(0))).toEqual({ mean: NaN, squares: 0 })
  })
})
