import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { makeRandom } from "../random.ts"
import { discreteLaplace, noiseFloor, selectionThreshold, upperTail } from "./discreteLaplace.ts"

describe("the two-sided geometric mechanism", () => {
  it("draws P(k) = (1 − a)/(1 + a) · a^|k|, a = e^−ε", () => {
    for (const epsilon of [0.1, 0.5, 2]) {
      const random = makeRandom(11)
      const draws = 200_000
      const counts = new Map<number, number>()
      let sumSquares = 0
      let whole = 0
      for (let i = 0; i < draws; i++) {
        const noise = discreteLaplace(epsilon, random)
        if (Number.isInteger(noise)) whole++
        counts.set(noise, (counts.get(noise) ?? 0) + 1)
        sumSquares += noise * noise
      }
      expect(whole).toBe(draws)
      const a = Math.exp(-epsilon)
      for (const k of [-2, -1, 0, 1, 2]) {
        const expected = ((1 - a) / (1 + a)) * a ** Math.abs(k)
        const observed = (counts.get(k) ?? 0) / draws
        // Five binomial standard errors.
        expect(Math.abs(observed - expected)).toBeLessThan(5 * Math.sqrt((expected * (1 - expected)) / draws))
      }
      const variance = (2 * a) / (1 - a) ** 2
      expect(sumSquares / draws / variance).toBeGreaterThan(0.97)
      expect(sumSquares / draws / variance).toBeLessThan(1.03)
    }
  })

  it("is ε-DP: the noisy count of n and of n + 1 differ in probability by at most e^ε at every value", () => {
    const epsilon = 0.7
    const a = Math.exp(-epsilon)
    const p = (k: number) => ((1 - a) / (1 + a)) * a ** Math.abs(k)
    for (let released = -20; released <= 40; released++) {
      const ratio = p(released - 10) / p(released - 11)
      expect(Math.max(ratio, 1 / ratio)).toBeLessThanOrEqual(Math.exp(epsilon) * (1 + 1e-12))
    }
  })
})

describe("the partition-selection threshold", () => {
  it("is the smallest that a count of one reaches with probability at most δ", () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-3, max: 20, noNaN: true }), fc.double({ min: 1e-12, max: 0.1, noNaN: true }), (epsilon, delta) => {
        const threshold = selectionThreshold(epsilon, delta)
        expect(Number.isInteger(threshold)).toBe(true)
        expect(upperTail(epsilon, threshold - 1)).toBeLessThanOrEqual(delta)
        if (threshold > 2) expect(upperTail(epsilon, threshold - 2)).toBeGreaterThan(delta)
      }),
      { numRuns: 500 }
    )
  })

  it("releases a label held by one row at most δ of the time, and a common label almost always", () => {
    const epsilon = 0.5
    const delta = 0.02
    const threshold = selectionThreshold(epsilon, delta)
    const random = makeRandom(3)
    const draws = 100_000
    let rare = 0
    let common = 0
    for (let i = 0; i < draws; i++) {
      if (1 + discreteLaplace(epsilon, random) >= threshold) rare++
      if (threshold + 20 + discreteLaplace(epsilon, random) >= threshold) common++
    }
    const tail = upperTail(epsilon, threshold - 1)
    expect(rare / draws).toBeLessThan(tail + 5 * Math.sqrt((tail * (1 - tail)) / draws))
    expect(tail).toBeLessThanOrEqual(delta)
    expect(common / draws).toBeGreaterThan(0.99)
  })

  it("puts the floor for 'there are some' where the noise alone reaches it at most the given share of the time", () => {
    for (const epsilon of [0.01, 0.3, 4]) {
      const floor = noiseFloor(epsilon, 0.05)
      expect(upperTail(epsilon, floor)).toBeLessThanOrEqual(0.05)
      if (floor > 1) expect(upperTail(epsilon, floor - 1)).toBeGreaterThan(0.05)
    }
  })
})
