import { describe, expect, it } from "vitest"
import { makeRandom } from "../random.ts"
import { selectionThreshold } from "./discreteLaplace.ts"
import { privacyLedger } from "./ledger.ts"
import { noisyCategories, noisyCount } from "./noisyCounts.ts"

describe("noisy categories", () => {
  it("releases a string column's labels only past the partition-selection threshold, in sorted order", () => {
    const counts = new Map([["Paris", 400], ["Smallville", 1], ["Lyon", 250], ["Nice", 3]])
    let rareReleased = 0
    for (let seed = 0; seed < 500; seed++) {
      const ledger = privacyLedger()
      const release = noisyCategories(ledger, "city", { counts, missing: 7, public: false }, 0.5, 1e-6, makeRandom(seed))
      expect(ledger.releases()).toEqual([release])
      expect(release.threshold).toBe(selectionThreshold(0.5, 1e-6))
      expect(release.labels).toEqual(["Lyon", "Paris"])
      expect(release.counts.every((count) => count >= release.threshold!)).toBe(true)
      if (release.labels.includes("Smallville") || release.labels.includes("Nice")) rareReleased++
    }
    expect(rareReleased).toBe(0)
  })

  it("releases a boolean's public labels whatever their counts, with noise, spending no δ", () => {
    const release = noisyCategories(
      privacyLedger(),
      "subscribed",
      { counts: new Map([["true", 0], ["false", 12]]), missing: 0, public: true },
      1,
      0,
      makeRandom(1)
    )
    expect(release.labels).toEqual(["false", "true"])
    expect(release.threshold).toBeNull()
    expect(release.delta).toBe(0)
    expect([...release.counts, release.missing].every(Number.isInteger)).toBe(true)
  })

  it("refuses to release labels read from the data without δ, and public labels with it", () => {
    const labels = { counts: new Map([["a", 5]]), missing: 0 }
    expect(() => noisyCategories(privacyLedger(), "x", { ...labels, public: false }, 1, 0, makeRandom(1))).toThrow(RangeError)
    expect(() => noisyCategories(privacyLedger(), "x", { ...labels, public: true }, 1, 1e-6, makeRandom(1))).toThrow(RangeError)
  })
})

describe("the noisy row count", () => {
  it("is the count plus two-sided geometric noise, recorded with its ε", () => {
    const ledger = privacyLedger()
    const release = noisyCount(ledger, "rows", 1000, 0.1, makeRandom(9))
    expect(ledger.releases()).toEqual([release])
    expect(ledger.epsilon()).toBe(0.1)
    expect(ledger.delta()).toBe(0)
    expect(Number.isInteger(release.count)).toBe(true)
    expect(release.count).not.toBe(1000)
    expect(Math.abs(release.count - 1000)).toBeLessThan(200)
  })
})
