import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { fitKde } from "./marginals/kde.ts"
import { ksStatistic } from "./marginals/ksStatistic.ts"
import type { MarginalFamily } from "./marginals/Marginal.ts"
import { marginalFromJson } from "./marginals/marginalFromJson.ts"
import { candidateFits, selectMarginal } from "./marginals/selectMarginal.ts"
import { betaRegularized, betaRegularizedInverse } from "./special/beta.ts"
import { digamma, gammaP, gammaPInverse, gammaQ, logGamma, trigamma } from "./special/gamma.ts"
import { normalCdf, normalPpf } from "./special/normal.ts"

// Written by reference/distributions_reference.py from scipy 1.17 and copulas 0.14.
const reference = JSON.parse(readFileSync(fileURLToPath(new URL("../../reference/fixtures/distributions.json", import.meta.url)), "utf8")) as {
  special: Record<string, Array<Array<number>>>
  families: Array<{ family: MarginalFamily; params: Record<string, number>; cdf: Array<[number, number]>; ppf: Array<[number, number]> }>
  kde: Array<{ data: Array<number>; bandwidth: number; cdf: Array<[number, number]> }>
  fits: Array<{ name: string; data: Array<number>; selected: MarginalFamily; fits: Record<MarginalFamily, { params: Record<string, number>; ks: number }> }>
}

const relative = (actual: number, expected: number) => (actual === expected ? 0 : Math.abs(actual - expected) / Math.max(Math.abs(expected), 1e-300))

describe("special functions against scipy", () => {
  it("Φ and Φ⁻¹ (AS241)", () => {
    for (const [x, value] of reference.special.ndtr!) expect(relative(normalCdf(x!), value!)).toBeLessThan(1e-13)
    for (const [p, value] of reference.special.ndtri!) expect(relative(normalPpf(p!), value!)).toBeLessThan(1e-14)
  })

  it("log Γ, ψ and ψ'", () => {
    for (const [a, value] of reference.special.gammaln!) expect(Math.abs(logGamma(a!) - value!) / Math.max(1, Math.abs(value!))).toBeLessThan(1e-13)
    for (const [a, value] of reference.special.psi!) expect(Math.abs(digamma(a!) - value!)).toBeLessThan(1e-12)
    for (const [a, value] of reference.special.trigamma!) expect(relative(trigamma(a!), value!)).toBeLessThan(1e-11)
  })

  it("the regularised incomplete gamma function and its inverse", () => {
    for (const [a, x, p, q] of reference.special.gammainc!) {
      expect(Math.abs(gammaP(a!, x!) - p!)).toBeLessThan(1e-11)
      expect(Math.abs(gammaQ(a!, x!) - q!)).toBeLessThan(1e-11)
    }
    for (const [a, p, value] of reference.special.gammaincinv!) expect(relative(gammaPInverse(p!, a!), value!)).toBeLessThan(1e-11)
  })

  it("the regularised incomplete beta function and its inverse", () => {
    for (const [a, b, x, value] of reference.special.betainc!) expect(Math.abs(betaRegularized(x!, a!, b!) - value!)).toBeLessThan(1e-12)
    for (const [a, b, p, value] of reference.special.betaincinv!) expect(relative(betaRegularizedInverse(p!, a!, b!), value!)).toBeLessThan(1e-9)
  })
})

describe("marginal families against scipy.stats", () => {
  it("cdf and ppf of normal, truncated normal, beta, gamma and uniform in scipy's parameterisation", () => {
    for (const { family, params, cdf, ppf } of reference.families) {
      const marginal = marginalFromJson({ family, params })
      for (const [x, value] of cdf) expect(Math.abs(marginal.cdf(x) - value), `${family} cdf(${x})`).toBeLessThan(1e-13)
      for (const [u, value] of ppf) expect(relative(marginal.ppf(u), value), `${family} ppf(${u})`).toBeLessThan(1e-12)
    }
  })

  it("the Gaussian KDE: Scott's bandwidth exactly, the cdf to 1e-8 (exact grid) and 1e-5 (binned, n > 2000)", () => {
    for (const { data, bandwidth, cdf } of reference.kde) {
      const marginal = fitKde(Float64Array.from(data).sort())
      expect(relative(marginal.params.bandwidth!, bandwidth)).toBeLessThan(1e-12)
      const tolerance = data.length <= 2000 ? 1e-8 : 1e-5
      for (const [x, value] of cdf) expect(Math.abs(marginal.cdf(x) - value)).toBeLessThan(tolerance)
      // ppf inverts that cdf (where the density is tiny a cdf error of 1e-5 moves x a lot, so compare in u).
      for (const [, value] of cdf) if (value > 1e-6 && value < 1 - 1e-6) expect(Math.abs(marginal.cdf(marginal.ppf(value)) - value)).toBeLessThan(1e-9)
    }
  })
})

describe("fits against copulas", () => {
  for (const sample of reference.fits) {
    it(`fits every family to the ${sample.name} sample as well as copulas and selects what it selects`, () => {
      const sorted = Float64Array.from(sample.data).sort()
      for (const [family, fit] of candidateFits) {
        const marginal = fit(sorted)
        const expected = sample.fits[family]!
        if (family === "normal" || family === "uniform") {
          for (const [name, value] of Object.entries(expected.params)) expect(relative(marginal.params[name]!, value)).toBeLessThan(1e-10)
        }
        // truncated normal, beta and gamma come from different optimisers: as good a fit, by the KS statistic.
        expect(ksStatistic(sorted, marginal.cdf), family).toBeLessThan(expected.ks + 1e-3)
      }
      expect(selectMarginal(sorted).marginal.family).toBe(sample.selected)
    })
  }
})
