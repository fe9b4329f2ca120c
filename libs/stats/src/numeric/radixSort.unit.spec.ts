import { describe, expect, it } from "vitest"
import { radixSortFloat64 } from "./radixSort.ts"

describe("radixSortFloat64", () => {
  it("orders like Float64Array.prototype.sort: negatives, -0 before 0, subnormals, infinities", () => {
    const special = [0, -0, 5e-324, -5e-324, Infinity, -Infinity, Number.MAX_VALUE, -Number.MAX_VALUE, 1, -1]
    const values = Float64Array.from({ length: 20_000 }, (_, index) =>
      index < special.length ? special[index]! : (Math.sin(index) * 10 ** ((index % 40) - 20)) * (index % 3 === 0 ? -1 : 1))
    expect(radixSortFloat64(values.slice())).toEqual(values.slice().sort())
  })

  it("sorts whole numbers, whose low words all match", () => {
    const values = Float64Array.from({ length: 5000 }, (_, index) => (index * 7919) % 1000 - 500)
    expect(radixSortFloat64(values.slice())).toEqual(values.slice().sort())
  })
})
