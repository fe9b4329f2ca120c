import { type ContinuousColumn, makeRandom } from "@synth/synth"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { protectedRank, protectTails, valueBounds, valueStep } from "./valueProtection.ts"

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

describe("protectTails", () => {
  const present = (protectedColumn: ContinuousColumn) =>
    Array.from(protectedColumn.values).filter((_, row) => protectedColumn.missing?.[row] !== 1)

  it("redraws each tail between its end and the 2r-th value, keeping missing values, and counts what changed", () => {
    const values = [...Array.from({ length: 100 }, (_, index) => index * 10), 1_000_000, null]
    const { bounds, column: result, redrawn } = protectTails(column(values), 5, makeRandom(3))
    expect(bounds).toEqual({ low: 40, high: 960 })
    const kept = present(result)
    expect(kept).toHaveLength(101)
    expect(result.missing![101]).toBe(1)
    expect(Math.max(...kept)).toBeLessThanOrEqual(960)
    expect(kept).not.toContain(1_000_000)
    for (const value of kept.slice(0, 5)) expect(value >= 40 && value <= 90).toBe(true)
    expect(kept.slice(10, 90)).toEqual(values.slice(10, 90))
    expect(redrawn).toBeGreaterThan(0)
    expect(redrawn).toBeLessThanOrEqual(12)
  })

  it("does not pile a tail onto one real value", () => {
    const birthDays = Array.from({ length: 400 }, (_, index) => 3_000 + index * 61)
    const { column: result } = protectTails({ ...column(birthDays), type: "date" }, 5, makeRandom(4))
    const counts = new Map<number, number>()
    for (const value of result.values) counts.set(value, (counts.get(value) ?? 0) + 1)
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(2)
    expect(Array.from(result.values).every(Number.isInteger)).toBe(true)
  })

  it("keeps a column's step: decimals of floats, the minute of datetimes", () => {
    const prices = Array.from({ length: 50 }, (_, index) => Number((index * 1.37).toFixed(2)))
    const { column: result } = protectTails(column(prices), 5, makeRandom(5))
    expect(Array.from(result.values).every((value) => Number(value.toFixed(2)) === value)).toBe(true)
    expect(valueStep("datetime", Float64Array.of(60_000, 180_000, 86_400_000))).toBe(60_000)
    expect(valueStep("float", Float64Array.of(1.5, 2.25))).toBe(0.01)
    expect(valueStep("integer", Float64Array.of(3))).toBe(1)
  })

  it("leaves tails tied to one value as they are: it is shared by at least r people", () => {
    const ages = [...Array<number>(20).fill(90), ...Array.from({ length: 80 }, (_, index) => 20 + (index % 60))]
    const { column: result } = protectTails(column(ages), 5, makeRandom(6))
    expect(present(result).filter((age) => age === 90)).toHaveLength(20)
  })
})
