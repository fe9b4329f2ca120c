import { Bool, DateDay, Float64, Int32, Int64, makeVector, TimestampMillisecond, Utf8, vectorFromArray } from "apache-arrow"
import { describe, expect, it } from "vitest"
import { booleanCodesOf, dictionaryEncode, epochMillisOf, numbersOf, withNaNForMissing } from "./columnValues.ts"

const day = 86_400_000

describe("numbersOf", () => {
  it("reads each chunk's values and marks the null rows", () => {
    const first = vectorFromArray([1, null, 3], new Int32())
    const second = vectorFromArray([null, 2.5], new Float64())
    expect(numbersOf(first.concat(vectorFromArray([4], new Int32()))))
      .toEqual({ values: Float64Array.of(1, 0, 3, 4), missing: Uint8Array.of(0, 1, 0, 0) })
    expect(numbersOf(second)).toEqual({ values: Float64Array.of(0, 2.5), missing: Uint8Array.of(1, 0) })
  })

  it("has no mask for a column without nulls, and reads 64-bit integers as numbers", () => {
    expect(numbersOf(makeVector(BigInt64Array.of(5n, -7n)))).toEqual({ values: Float64Array.of(5, -7), missing: null })
    expect(numbersOf(vectorFromArray([1n, 2n], new Int64())).missing).toBeNull()
  })
})

describe("epochMillisOf", () => {
  it("reads dates and timestamps as milliseconds since the epoch", () => {
    const dates = vectorFromArray([new Date(3 * day), null], new DateDay())
    expect(epochMillisOf(dates)).toEqual({ values: Float64Array.of(3 * day, 0), missing: Uint8Array.of(0, 1) })
    const times = vectorFromArray([new Date(1234)], new TimestampMillisecond())
    expect(epochMillisOf(times)).toEqual({ values: Float64Array.of(1234), missing: null })
  })
})

describe("epochMillisOf on day dates", () => {
  it("reads every chunk and slice as get() does", () => {
    const days = Array.from({ length: 50 }, (_, index) => (index % 7 === 3 ? null : new Date((index * 37 - 400) * day)))
    const whole = vectorFromArray(days, new DateDay())
    const pieces = whole.slice(0, 11).concat(whole.slice(11, 12), vectorFromArray([null], new DateDay()).slice(1), whole.slice(12))
    const expected = Float64Array.from(days, (date) => (date === null ? 0 : date.getTime()))
    expect(epochMillisOf(pieces)).toEqual({ values: expected, missing: Uint8Array.from(days, (date) => (date === null ? 1 : 0)) })
    expect(Array.from(pieces, (value: unknown) => (value === null ? 0 : Number(value)))).toEqual(Array.from(expected))
  })
})

describe("withNaNForMissing", () => {
  it("puts NaN in the null rows, leaving a column without nulls as it is", () => {
    expect(withNaNForMissing({ values: Float64Array.of(1, 0, 3), missing: Uint8Array.of(0, 1, 0) }))
      .toEqual(Float64Array.of(1, NaN, 3))
    const values = Float64Array.of(0, 2)
    expect(withNaNForMissing({ values, missing: null })).toBe(values)
  })
})

describe("dictionary codes", () => {
  it("encodes strings in order of first appearance, -1 for null", () => {
    expect(dictionaryEncode(vectorFromArray(["b", "a", null, "b", ""], new Utf8())))
      .toEqual({ codes: Int32Array.of(0, 1, -1, 0, 2), categories: ["b", "a", ""] })
  })

  it("encodes booleans as codes of false and true", () => {
    expect(booleanCodesOf(vectorFromArray([true, null, false], new Bool())))
      .toEqual({ codes: Int32Array.of(1, -1, 0), categories: ["false", "true"] })
  })
})
