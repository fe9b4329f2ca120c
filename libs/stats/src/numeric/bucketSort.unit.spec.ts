import { describe, expect, it } from "vitest"
import { sortFloat64 } from "./bucketSort.ts"

const expectSortedLikeNative = (values: Float64Array) => {
  const sorted = sortFloat64(values.slice())
  const native = values.slice().sort()
  // toEqual would let -0 stand for 0; the sign of every zero must match too.
  expect(Array.from(sorted, (value) => Object.is(value, -0) ? "-0" : value)).toEqual(
    Array.from(native, (value) => Object.is(value, -0) ? "-0" : value)
  )
}

describe("sortFloat64", () => {
  it("orders like Float64Array.prototype.sort: negatives, -0 before 0, subnormals, infinities", () => {
    const special = [0, -0, 5e-324, -5e-324, Infinity, -Infinity, Number.MAX_VALUE, -Number.MAX_VALUE, 1, -1, 0, -0]
    expectSortedLikeNative(Float64Array.from({ length: 20_000 }, (_, index) =>
      index < special.length ? special[index]! : (Math.sin(index) * 10 ** ((index % 40) - 20)) * (index % 3 === 0 ? -1 : 1)))
  })

  it("sorts heavy tails, few distinct values and ranges too narrow to split", () => {
    expectSortedLikeNative(Float64Array.from({ length: 50_000 }, (_, index) => Math.exp(8 * Math.sin(index * 12.9898))))
    expectSortedLikeNative(Float64Array.from({ length: 50_000 }, (_, index) => (index * 7919) % 3))
    expectSortedLikeNative(Float64Array.from({ length: 5_000 }, (_, index) => (index % 7) * 5e-324))
    expectSortedLikeNative(Float64Array.from({ length: 5_000 }, (_, index) => 1 + ((index * 31) % 97) * Number.EPSILON))
    expectSortedLikeNative(Float64Array.from({ length: 5_000 }, (_, index) => (index % 2 === 0 ? -1e308 : 1e308) * Math.cos(index)))
  })

  it("sorts whole numbers over a narrow range by counting, -0 before 0, and falls back on a fraction", () => {
    const wholes = Float64Array.from({ length: 10_000 }, (_, index) =>
      ((index * 7919) % 201) - 100 || (index % 2 === 0 ? -0 : 0))
    expectSortedLikeNative(wholes)
    expectSortedLikeNative(Float64Array.from({ length: 10_000 }, (_, index) => (index * 7919) % 10_000 + 2 ** 52))
    const oneFraction = wholes.slice()
    oneFraction[9_999] = 0.5
    expectSortedLikeNative(oneFraction)
  })
})
