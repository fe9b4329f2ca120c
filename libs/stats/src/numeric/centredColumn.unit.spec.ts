import { describe, expect, it } from "vitest"
import { centredColumn } from "./centredColumn.ts"

describe("centredColumn", () => {
  it("keeps the moments exact when summing in row order puts the centre far off the mean", () => {
    // Around 1e15 the doubles are 0.125 apart: the plain row-order sum lands the centre 0.44 off the mean, 1.5
    // standard deviations, so the power sums are taken again about the mean.
    const steps = Array.from({ length: 10_000 }, (_, index) => (index * 7919) % 8)
    const values = Float64Array.from(steps, (step) => 1e15 + step / 8)
    const meanStep = steps.reduce((sum, step) => sum + step, 0) / steps.length
    const variance = steps.reduce((sum, step) => sum + (step - meanStep) ** 2, 0) / (steps.length - 1) / 64
    const { moments } = centredColumn(values)
    expect(Math.abs(moments.mean - (1e15 + meanStep / 8))).toBeLessThanOrEqual(0.125)
    expect(moments.std).toBeCloseTo(Math.sqrt(variance), 9)
    expect(Math.abs(moments.skewness)).toBeLessThan(1e-6)
  })

  it("gives a constant column its value as mean, std 0 and no skewness, missing values aside", () => {
    const centred = centredColumn(Float64Array.from([0.1, NaN, 0.1, 0.1, NaN]))
    expect(centred.moments).toMatchObject({ count: 3, mean: 0.1, std: 0 })
    expect(centred.moments.skewness).toBeNaN()
    expect(Array.from(centred.missingRows)).toEqual([1, 4])
    expect(centred.constant).toBe(true)
  })
})
