import { makeRandom } from "@synth/synth"
import { describe, expect, it } from "vitest"
import { aucInterval } from "./aucInterval.ts"
import { rocAuc } from "./rocAuc.ts"

const Z_95 = 1.959963984540054

describe("aucInterval (DeLong)", () => {
  it("matches a hand computation without ties", () => {
    // Pairs: 3 beats 2 and 0, 1 beats 0 only: AUC 3/4. Placements: positives 1, 1/2; negatives 1/2, 1.
    // Variance: var(1, 1/2)/2 + var(1/2, 1)/2 = 1/16 + 1/16.
    const interval = aucInterval(Float64Array.of(3, 1), Float64Array.of(2, 0))!
    expect(interval.auc).toBe(0.75)
    expect(interval.standardError).toBeCloseTo(Math.sqrt(1 / 8), 15)
    expect(interval.low).toBeCloseTo(0.75 - Z_95 * Math.sqrt(1 / 8), 15)
    expect(interval.high).toBe(1)
  })

  it("counts ties as one half, as the AUC does", () => {
    // Positives 1, 2, 2 against negatives 2, 0: placements 1/2, 3/4, 3/4 and 1/3, 1; AUC 2/3.
    // Variance: (1/48)/3 + (2/9)/2 = 17/144.
    const positive = Float64Array.of(1, 2, 2), negative = Float64Array.of(2, 0)
    const interval = aucInterval(positive, negative)!
    expect(interval.auc).toBeCloseTo(2 / 3, 15)
    expect(interval.auc).toBeCloseTo(rocAuc(positive, negative), 15)
    expect(interval.standardError).toBeCloseTo(Math.sqrt(17) / 12, 15)
  })

  it("has no interval with fewer than two scores on a side", () => {
    expect(aucInterval(Float64Array.of(1), Float64Array.of(0, 2))).toBeNull()
    expect(aucInterval(Float64Array.of(1, 2), Float64Array.of(0))).toBeNull()
  })

  // Positives uniform on [δ, 1 + δ], negatives on [0, 1]: the true AUC is 1 − (1 − δ)²/2.
  const coverage = (shift: number, positives: number, negatives: number, trials: number) => {
    const random = makeRandom(17)
    const truth = 1 - (1 - shift) ** 2 / 2
    let covered = 0
    for (let trial = 0; trial < trials; trial++) {
      const positive = Float64Array.from({ length: positives }, () => random.next() + shift)
      const negative = Float64Array.from({ length: negatives }, () => random.next())
      const interval = aucInterval(positive, negative)!
      if (interval.low <= truth && truth <= interval.high) covered++
    }
    return covered / trials
  }

  it("covers the true AUC about 95 % of the time (2,000 seeded trials each)", () => {
    // The normal interval runs a little short with few negatives (measured 93.5 … 95.9 % over three seeds of these
    // sizes); 2,000 trials spread ±0.5 % (one s.d.), so 92 … 97.5 % tells a working interval from a broken one.
    for (const [shift, positives, negatives] of [[0, 200, 50], [0.2, 300, 40], [0.5, 100, 100]] as const) {
      const share = coverage(shift, positives, negatives, 2000)
      expect(share).toBeGreaterThan(0.92)
      expect(share).toBeLessThan(0.975)
    }
  }, 60_000)
})
