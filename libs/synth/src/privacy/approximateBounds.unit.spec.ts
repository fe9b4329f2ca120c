import { describe, expect, it } from "vitest"
import { makeRandom } from "../random.ts"
import { approximateRange, FAILURE_PROBABILITY, logEdges } from "./approximateBounds.ts"
import { noiseFloor, upperTail } from "./discreteLaplace.ts"
import { privacyLedger } from "./ledger.ts"
import { binOf, noisyHistogram } from "./noisyCounts.ts"

describe("the log-scale bins", () => {
  it("are symmetric powers of two around 0, a function of the type alone", () => {
    for (const type of ["integer", "float", "date", "datetime"] as const) {
      const edges = logEdges(type)
      expect(edges.every((edge, i) => i === 0 || edge > edges[i - 1]!)).toBe(true)
      expect(edges.map((edge) => 0 - edge).reverse()).toEqual(edges.map((edge) => edge + 0))
      expect(edges.includes(0)).toBe(true)
      expect(edges.filter((edge) => edge > 0).every((edge) => Number.isInteger(Math.log2(edge)))).toBe(true)
    }
    expect(logEdges("integer")[logEdges("integer").indexOf(0) + 1]).toBe(1)
    expect(logEdges("float")[logEdges("float").indexOf(0) + 1]).toBe(2 ** -20)
  })

  it("hold each value in one bin, values beyond the outer edges in the outer bins", () => {
    const edges = logEdges("integer")
    const zero = edges.indexOf(0)
    expect(binOf(edges, 0)).toBe(zero)
    expect(binOf(edges, 1)).toBe(zero + 1)
    expect(binOf(edges, 3)).toBe(zero + 2)
    expect(binOf(edges, -1)).toBe(zero - 1)
    expect(binOf(edges, -1.5)).toBe(zero - 2)
    expect(binOf(edges, 1e300)).toBe(edges.length - 2)
    expect(binOf(edges, -1e300)).toBe(0)
  })
})

describe("the approximate range", () => {
  it("spans the bins the data fill, without one person's outlier, whatever the noise", () => {
    const values = [...Array.from({ length: 2000 }, (_, i) => 100 + (i % 100)), 9_876_543.21]
    const edges = logEdges("float")
    for (let seed = 0; seed < 200; seed++) {
      const release = noisyHistogram(privacyLedger(), "income", values, 0, edges, 0.1, makeRandom(seed))
      expect(approximateRange(release)).toEqual({ low: 64, high: 256 })
    }
  })

  it("sets the threshold so that any empty bin passes with probability at most FAILURE_PROBABILITY", () => {
    for (const epsilon of [0.01, 0.1, 1]) {
      const bins = logEdges("float").length - 1
      const threshold = noiseFloor(epsilon, FAILURE_PROBABILITY / bins)
      expect(bins * upperTail(epsilon, threshold)).toBeLessThanOrEqual(FAILURE_PROBABILITY)
    }
  })

  it("falls back on the fullest bin when no bin reaches the threshold", () => {
    const edges = logEdges("integer")
    const release = noisyHistogram(privacyLedger(), "age", [30, 31, 35, 40, 41], 0, edges, 0.05, makeRandom(1))
    const fullest = release.counts.reduce((best, count, bin) => (count > release.counts[best]! ? bin : best), 0)
    expect(approximateRange(release)).toEqual({ low: edges[fullest], high: edges[fullest + 1] })
  })

  it("is an ε-DP histogram: every cell, missing included, is a count with geometric noise, recorded in the ledger", () => {
    const ledger = privacyLedger()
    const edges = logEdges("date")
    const release = noisyHistogram(ledger, "day", [19_000, 19_001, -5], 3, edges, 0.4, makeRandom(2))
    expect(ledger.releases()).toEqual([release])
    expect(release).toMatchObject({ _tag: "histogram", column: "day", epsilon: 0.4, delta: 0, edges })
    expect(release.counts).toHaveLength(edges.length - 1)
    expect([...release.counts, release.missing].every(Number.isInteger)).toBe(true)
  })
})
