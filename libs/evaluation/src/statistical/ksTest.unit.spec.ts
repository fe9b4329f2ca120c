import { describe, expect, it } from "vitest"
import { expectClose, readFixture } from "./testing/fixtures.ts"
import { sequence, type SequenceSpec } from "./testing/sequence.ts"
import { ksTest } from "./ksTest.ts"
import { wassersteinDistance } from "./wasserstein.ts"

interface KsCase {
  readonly a: SequenceSpec
  readonly b: SequenceSpec
  readonly statistic: number
  readonly p_value: number
  readonly method: "exact" | "asymp"
  readonly wasserstein: number
}
const cases = readFixture<{ ks_2samp: ReadonlyArray<KsCase> }>("distributions.json").ks_2samp
const sorted = (spec: SequenceSpec) => sequence(spec).sort()

describe("ksTest and wassersteinDistance against scipy's ks_2samp and wasserstein_distance", () => {
  for (const { a, b, statistic, p_value, method, wasserstein } of cases) {
    it(`${a.n} vs ${b.n} values${a.floor ? " with ties" : ""}: ${method}, p = ${p_value.toPrecision(3)}`, () => {
      const result = ksTest(sorted(a), sorted(b))
      expect(result?.method).toBe(method)
      expectClose(result!.statistic, statistic, 1e-12)
      expectClose(result!.pValue, p_value, 1e-9)
      expectClose(wassersteinDistance(sorted(a), sorted(b)), wasserstein, 1e-9)
    })
  }

  it("has no result for an empty sample, and a distance of 0 between equal samples", () => {
    expect(ksTest(new Float64Array(0), Float64Array.of(1))).toBeNull()
    expect(Number.isNaN(wassersteinDistance(new Float64Array(0), Float64Array.of(1)))).toBe(true)
    const values = Float64Array.of(1, 2, 2, 5)
    expect(ksTest(values, values)).toEqual({ statistic: 0, pValue: 1, method: "exact" })
    expect(wassersteinDistance(values, values)).toBe(0)
  })
})
