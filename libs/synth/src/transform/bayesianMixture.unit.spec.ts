import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { normalCdf } from "../copula/special/normal.ts"
import { makeRandom } from "../random.ts"
import { componentProbabilities, fitBayesianMixture, type FittedMixture } from "./bayesianMixture.ts"
import { kMeans1d } from "./kMeans1d.ts"

interface SklearnFit {
  readonly weights: ReadonlyArray<number>
  readonly means: ReadonlyArray<number>
  readonly stds: ReadonlyArray<number>
  readonly n_iter: number
  readonly converged: boolean
  readonly lower_bound: number
}

interface Sample {
  readonly values: ReadonlyArray<number>
  readonly fixed_init: SklearnFit & { readonly predict_proba_first_20: ReadonlyArray<ReadonlyArray<number>> }
  readonly kmeans_init: ReadonlyArray<SklearnFit>
}

// scikit-learn 1.x BayesianGaussianMixture, configured as CTGAN's normaliser (reference/vbgmm_reference.py).
const fixtures = JSON.parse(
  readFileSync(new URL("../../reference/fixtures/vbgmm.json", import.meta.url), "utf8")
) as Record<"three_modes" | "lognormal" | "few_integers", Sample>

/** The reference's starting assignment: values sorted and cut into ten equal-count blocks. */
const rankBlocks = (values: Float64Array, components: number): Int32Array => {
  const order = Array.from(values.keys()).sort((a, b) => values[a]! - values[b]! || a - b)
  const labels = new Int32Array(values.length)
  order.forEach((row, rank) => {
    labels[row] = Math.floor((rank * components) / values.length)
  })
  return labels
}

/** The components that carry weight, as [weight, mean, std], heaviest first. */
const modes = (fit: { weights: ArrayLike<number>; means: ArrayLike<number>; stds: ArrayLike<number> }, floor: number) =>
  Array.from(fit.weights, (weight, k) => [weight, fit.means[k]!, fit.stds[k]!] as const)
    .filter(([weight]) => weight > floor)
    .sort((a, b) => b[0] - a[0])

const expectClose = (actual: ArrayLike<number>, expected: ReadonlyArray<number>, tolerance: number) => {
  expect(actual.length).toBe(expected.length)
  expected.forEach((value, i) => expect(Math.abs(actual[i]! - value)).toBeLessThanOrEqual(tolerance * Math.max(1, Math.abs(value))))
}

describe("fitBayesianMixture from scikit-learn's starting assignment", () => {
  for (const [name, sample] of Object.entries(fixtures)) {
    it(`reproduces scikit-learn's variational EM on ${name}`, () => {
      const values = Float64Array.from(sample.values)
      const reference = sample.fixed_init
      const fit: FittedMixture = fitBayesianMixture(values, rankBlocks(values, 10), { components: 10 })
      expect(fit.iterations).toBe(reference.n_iter)
      expect(fit.converged).toBe(reference.converged)
      expect(Math.abs(fit.lowerBound - reference.lower_bound) / Math.abs(reference.lower_bound)).toBeLessThan(1e-9)
      expectClose(fit.weights, reference.weights, 1e-7)
      expectClose(fit.means, reference.means, 1e-7)
      expectClose(fit.stds, reference.stds, 1e-7)
      const row = new Float64Array(10)
      reference.predict_proba_first_20.forEach((expected, i) => {
        componentProbabilities(fit.stored, values[i]!, row)
        expectClose(row, expected, 1e-7)
      })
    })
  }
})

/** The fitted mixture's distribution function at x (what the modes add up to, whichever way they are split). */
const mixtureCdf = (fit: { weights: ArrayLike<number>; means: ArrayLike<number>; stds: ArrayLike<number> }, x: number) =>
  Array.from(fit.weights).reduce((sum, weight, k) => sum + weight * normalCdf((x - fit.means[k]!) / fit.stds[k]!), 0)

describe("fitBayesianMixture from k-means", () => {
  // scikit-learn's own k-means starts split the modes differently from seed to seed (the fixture holds three); what
  // they agree on is the distribution the mixture describes, and where the heavy modes sit.
  for (const [name, sample] of Object.entries(fixtures)) {
    it(`describes ${name} as scikit-learn's fits do`, () => {
      const values = Float64Array.from(sample.values)
      const sorted = Float64Array.from(values).sort()
      for (const seed of [1, 2, 3]) {
        const fit = fitBayesianMixture(values, kMeans1d(values, 10, makeRandom(seed)), { components: 10 })
        for (const reference of sample.kmeans_init) {
          for (const q of [0.05, 0.25, 0.5, 0.75, 0.95]) {
            const x = sorted[Math.floor(q * sorted.length)]!
            expect(Math.abs(mixtureCdf(fit, x) - mixtureCdf(reference, x))).toBeLessThan(0.01)
          }
        }
      }
    })
  }

  it("finds the three modes of three_modes with their weights", () => {
    const values = Float64Array.from(fixtures.three_modes.values)
    const fit = fitBayesianMixture(values, kMeans1d(values, 10, makeRandom(1)), { components: 10 })
    // The data: N(-10, 1) × 1500, N(0, 0.5) × 1000, N(8, 2) × 500.
    const weightNear = (low: number, high: number) =>
      Array.from(fit.weights).reduce((sum, weight, k) => sum + (fit.means[k]! > low && fit.means[k]! < high ? weight : 0), 0)
    expect(weightNear(-13, -7)).toBeCloseTo(0.5, 2)
    expect(weightNear(-2, 2)).toBeCloseTo(0.333, 2)
    expect(weightNear(4, 12)).toBeCloseTo(0.167, 2)
  })

  it("puts a narrow mode on each common value of a few-valued integer column, as scikit-learn does", () => {
    const values = Float64Array.from(fixtures.few_integers.values)
    const fit = fitBayesianMixture(values, kMeans1d(values, 10, makeRandom(2)), { components: 10 })
    const found = modes(fit, 0.02)
    const expected = modes(fixtures.few_integers.kmeans_init[0]!, 0.02)
    expect(found.length).toBe(expected.length)
    found.forEach(([weight, mean, std], i) => {
      const [expectedWeight, expectedMean, expectedStd] = expected[i]!
      expect(Math.abs(weight - expectedWeight)).toBeLessThan(0.005)
      expect(Math.abs(mean - expectedMean)).toBeLessThan(0.05)
      expect(Math.abs(std - expectedStd) / expectedStd).toBeLessThan(0.05)
    })
  })

  it("is reproducible for a seed", () => {
    const values = Float64Array.from(fixtures.lognormal.values)
    const fit = (seed: number) => fitBayesianMixture(values, kMeans1d(values, 10, makeRandom(seed)), { components: 10 })
    expect(Array.from(fit(5).means)).toEqual(Array.from(fit(5).means))
  })
})
