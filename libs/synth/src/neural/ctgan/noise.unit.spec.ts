import { describe, expect, it } from "vitest"
import { makeRandom } from "../../random.ts"
import { fairCoins, fillFairCoins } from "./noise.ts"

/** fairCoins read coin by coin: bit k of ⌊u · 2³²⌋ for the k-th coin of each uniform draw u. */
const coinByCoin = (count: number, value: number, seed: number) => {
  const random = makeRandom(seed)
  const values = new Float32Array(count)
  for (let start = 0; start < count; start += 32) {
    const bits = Math.floor(random.next() * 4294967296)
    for (let i = start; i < Math.min(count, start + 32); i++) values[i] = Math.floor(bits / 2 ** (i - start)) % 2 === 1 ? value : 0
  }
  return values
}

describe("fair coins", () => {
  it("reads each draw's 32 bits low to high, whatever the count and offset", () => {
    for (const count of [1, 7, 8, 9, 31, 32, 33, 100, 4099]) {
      const expected = coinByCoin(count, 2, count)
      expect(Array.from(fairCoins(count, 2, makeRandom(count)))).toEqual(Array.from(expected))
      const into = new Float32Array(count + 6).fill(-1)
      fillFairCoins(into, 3, count, 2, makeRandom(count))
      expect(Array.from(into.subarray(3, 3 + count))).toEqual(Array.from(expected))
      expect([...into.subarray(0, 3), ...into.subarray(3 + count)]).toEqual([-1, -1, -1, -1, -1, -1])
    }
    const many = fairCoins(100_000, 1, makeRandom(1))
    expect(many.reduce((sum, coin) => sum + coin, 0) / many.length).toBeCloseTo(0.5, 2)
  })
})
