import { describe, expect, it } from "vitest"
import { makeRandom } from "../random.ts"
import type { MarginalFamily } from "./marginals/Marginal.ts"
import { selectMarginal } from "./marginals/selectMarginal.ts"
import { betaRegularizedInverse } from "./special/beta.ts"
import { gammaPInverse } from "./special/gamma.ts"

const random = makeRandom(5)
const sample = (draw: () => number) => Float64Array.from({ length: 20_000 }, draw).sort()

// KS selection (as copulas') can only tell families apart where their shapes differ: normal data are fitted as
// well by a truncated normal, a gamma with a large shape or a wide beta, and uniform data by beta(1, 1).
const cases: ReadonlyArray<readonly [string, Float64Array, ReadonlyArray<MarginalFamily>]> = [
  ["normal", sample(() => 10 + 3 * random.normal()), ["normal", "truncated_normal", "gamma", "beta"]],
  ["U-shaped beta(0.5, 0.5)", sample(() => 2 + 4 * betaRegularizedInverse(random.next(), 0.5, 0.5)), ["beta"]],
  ["beta(2, 6)", sample(() => 2 + 4 * betaRegularizedInverse(random.next(), 2, 6)), ["beta"]],
  ["gamma(3)", sample(() => 1 + 2 * gammaPInverse(random.next(), 3)), ["gamma"]],
  ["uniform", sample(() => -4 + 13 * random.next()), ["uniform", "beta", "truncated_normal"]],
  ["bimodal", sample(() => (random.next() < 0.5 ? -3 + random.normal() : 4 + 1.5 * random.normal())), ["gaussian_kde"]]
]

describe("selectMarginal", () => {
  for (const [name, data, accepted] of cases) {
    it(`selects a family that has the shape of ${name} data`, () => {
      const { marginal } = selectMarginal(data)
      expect(accepted).toContain(marginal.family)
      // Whatever family wins, its median and interquartile range are the data's.
      const quantile = (q: number) => data[Math.floor(q * (data.length - 1))]!
      const spread = quantile(0.75) - quantile(0.25)
      for (const q of [0.25, 0.5, 0.75]) expect(Math.abs(marginal.ppf(q) - quantile(q))).toBeLessThan(0.05 * spread)
    })
  }

  it("keeps to the candidates it is given and treats a single value as a constant", () => {
    expect(selectMarginal(cases[0]![1], ["normal", "uniform"]).marginal.family).toBe("normal")
    const constant = selectMarginal(new Float64Array([2, 2, 2])).marginal
    expect(constant.family).toBe("constant")
    expect(constant.ppf(0.3)).toBe(2)
  })
})
