import { describe, expect, it } from "vitest"
import { expectClose, readFixture } from "./testing/fixtures.ts"
import { sequence, type SequenceSpec } from "./testing/sequence.ts"
import { chiSquareTest } from "./chiSquareTest.ts"

interface CsCase {
  readonly real: SequenceSpec
  readonly synthetic: SequenceSpec
  readonly statistic: number
  readonly p_value: number
}
const cases = readFixture<{ cstest: ReadonlyArray<CsCase> }>("distributions.json").cstest

describe("chiSquareTest against SDMetrics' CSTest", () => {
  for (const { real, synthetic, statistic, p_value } of cases) {
    it(`categories ${real.shift}…${real.shift + real.scale - 1} vs ${synthetic.shift}…${synthetic.shift + synthetic.scale - 1} (negative = missing)`, () => {
      // The sequences' integers are the category ids; −1 and below are missing, as the reference maps them.
      const ids = (spec: SequenceSpec) => Int32Array.from(sequence(spec), (value) => (value < 0 ? -1 : value))
      const size = Math.max(real.shift + real.scale, synthetic.shift + synthetic.scale)
      const result = chiSquareTest(ids(real), ids(synthetic), size)
      // Relative: a category only the synthetic column has (expected 1e-6) makes the statistic huge.
      expectClose(result!.statistic, statistic, 1e-12 * Math.max(1, statistic))
      expectClose(result!.pValue, p_value, 1e-9)
    })
  }

  it("scores a single shared category 1 and has no result for an empty column", () => {
    expect(chiSquareTest(Int32Array.of(0, 0), Int32Array.of(0), 1)).toEqual({ statistic: 0, pValue: 1 })
    expect(chiSquareTest(Int32Array.of(0), new Int32Array(0), 1)).toBeNull()
  })
})
