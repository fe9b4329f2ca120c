import type { ContinuousColumn } from "@synth/synth"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { clampToBounds, protectedRank, valueBounds } from "./valueProtection.ts"

const column = (values: ReadonlyArray<number | null>): ContinuousColumn => ({
  kind: "continuous",
  name: "income",
  type: "float",
  values: Float64Array.from(values, (value) => value ?? 0),
  missing: values.includes(null) ? Uint8Array.from(values, (value) => (value === null ? 1 : 0)) : null,
  sourceFormat: null
})

describe("valueBounds", () => {
  it("ends at the k-th smallest and largest values, so one outlier sets neither end", () => {
    const incomes = [...Array.from({ length: 398 }, (_, index) => 20_000 + index * 1_000), 9_876_543.21, 3]
    const bounds = valueBounds(column(incomes), 5)!
    expect(bounds).toEqual({ low: 23_000, high: 414_000 })
  })

  it("takes a thousandth of the values at each end on large tables", () => {
    expect(protectedRank(1_000_000, 5)).toBe(1_000)
    expect(protectedRank(400, 5)).toBe(5)
    const values = Array.from({ length: 20_000 }, (_, index) => index)
    expect(valueBounds(column(values), 5)).toEqual({ low: 19, high: 19_980 })
  })

  it("ignores missing values, and collapses a column too short for k values beyond each end to its median", () => {
    expect(valueBounds(column([null, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, null]), 3)).toEqual({ low: 3, high: 8 })
    expect(valueBounds(column([5, 1, 9]), 5)).toEqual({ low: 5, high: 5 })
    expect(valueBounds(column([null, null]), 5)).toBeNull()
  })

  it("never publishes the column's strict extremes when they are held by fewer than k rows", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1_000, max: 1_000 }), { minLength: 10, maxLength: 200 }), fc.integer({ min: 2, max: 5 }), (values, k) => {
        const bounds = valueBounds(column(values), k)!
        const sorted = [...values].sort((a, b) => a - b)
        const atOrBelow = sorted.filter((value) => value <= bounds.low).length
        const atOrAbove = sorted.filter((value) => value >= bounds.high).length
        expect(Math.min(atOrBelow, atOrAbove)).toBeGreaterThanOrEqual(Math.min(k, Math.ceil(values.length / 2)))
      })
    )
  })
})

describe("clampToBounds", () => {
  it("moves values outside the range to its ends, counts them, and leaves missing values alone", () => {
    const { clipped, column: clamped } = clampToBounds(column([1, 50, null, 99, 1_000]), { low: 10, high: 100 })
    expect(Array.from(clamped.values)).toEqual([10, 50, 0, 99, 100])
    expect(clamped.missing).toEqual(Uint8Array.from([0, 0, 1, 0, 0]))
    expect(clipped).toBe(2)
  })
})
