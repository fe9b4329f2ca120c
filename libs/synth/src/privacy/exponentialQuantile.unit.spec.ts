import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { makeRandom } from "../random.ts"
import { CANDIDATES, candidateOf, exponentialQuantile, quantileProbabilities } from "./exponentialQuantile.ts"
import { privacyLedger } from "./ledger.ts"

const sortedOf = (values: ReadonlyArray<number>, low: number, high: number) =>
  Float64Array.from(values, (value) => Math.min(high, Math.max(low, value))).sort()

describe("the exponential-mechanism quantile", () => {
  it("is ε-DP: adding any one value changes no candidate's probability by more than e^ε", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1000, max: 1000, noNaN: true }), { minLength: 0, maxLength: 60 }),
        fc.double({ min: -5000, max: 5000, noNaN: true }),
        fc.constantFrom(0.005, 0.25, 0.5, 0.75, 0.995),
        fc.double({ min: 0.01, max: 5, noNaN: true }),
        (values, added, probability, epsilon) => {
          const range = { low: -1024, high: 1024 }
          const without = quantileProbabilities(sortedOf(values, range.low, range.high), probability, range, epsilon)
          const withIt = quantileProbabilities(sortedOf([...values, added], range.low, range.high), probability, range, epsilon)
          let largest = 0
          for (let j = 0; j < CANDIDATES; j++) largest = Math.max(largest, Math.abs(Math.log(withIt[j]! / without[j]!)))
          expect(largest).toBeLessThanOrEqual(epsilon * (1 + 1e-9))
        }
      ),
      { numRuns: 300 }
    )
  })

  it("draws by those probabilities, records what it released, and answers a candidate", () => {
    const range = { low: 0, high: 100 }
    const values = sortedOf(Array.from({ length: 500 }, (_, i) => (i * 37) % 100), 0, 100)
    const probabilities = quantileProbabilities(values, 0.5, range, 0.2)
    const random = makeRandom(5)
    const counts = new Float64Array(CANDIDATES)
    const draws = 5_000
    const ledger = privacyLedger()
    for (let i = 0; i < draws; i++) {
      const { value } = exponentialQuantile(privacyLedger(), "x", values, 0.5, range, 0.2, random)
      counts[Math.round(((value - range.low) / (range.high - range.low)) * (CANDIDATES - 1))]! += 1
    }
    // Kolmogorov–Smirnov: the empirical CDF within the 0.1% critical distance of the mechanism's.
    let observed = 0
    let expected = 0
    let largest = 0
    for (let j = 0; j < CANDIDATES; j++) {
      observed += counts[j]! / draws
      expected += probabilities[j]!
      largest = Math.max(largest, Math.abs(observed - expected))
    }
    expect(largest).toBeLessThan(1.95 / Math.sqrt(draws))
    const release = exponentialQuantile(ledger, "x", values, 0.5, range, 0.2, random)
    expect(ledger.releases()).toEqual([release])
    expect(release).toMatchObject({ _tag: "quantile", column: "x", epsilon: 0.2, delta: 0, probability: 0.5 })
    expect(Array.from({ length: CANDIDATES }, (_, j) => candidateOf(0, 100, j))).toContain(release.value)
  })

  it("keeps a point mass where it is: a column that is mostly 0 gets 0 as its lower bound", () => {
    const values = sortedOf([...Array<number>(600).fill(0), ...Array.from({ length: 400 }, (_, i) => 1000 + i * 50)], 0, 32_768)
    const probabilities = quantileProbabilities(values, 0.005, { low: 0, high: 32_768 }, 0.5)
    expect(probabilities[0]).toBeGreaterThan(0.99)
  })

  it("lands near the quantile when the data are many", () => {
    const range = { low: 0, high: 2048 }
    const values = sortedOf(Array.from({ length: 10_000 }, (_, i) => (i * 7919) % 1000), range.low, range.high)
    const probabilities = quantileProbabilities(values, 0.995, range, 1)
    let near = 0
    for (let j = 0; j < CANDIDATES; j++) {
      const candidate = candidateOf(range.low, range.high, j)
      if (candidate >= 990 && candidate <= 1000) near += probabilities[j]!
    }
    expect(near).toBeGreaterThan(0.99)
  })
})
