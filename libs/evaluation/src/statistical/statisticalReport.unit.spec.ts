import { qualityReport } from "@synth/synth"
import { describe, expect, it } from "vitest"
import { expectClose, loadTable, readFixture } from "./testing/fixtures.ts"
import { statisticalReport } from "./statisticalReport.ts"

interface ReferenceColumn {
  readonly column: string
  readonly kind: "continuous" | "categorical"
  readonly ks_statistic?: number
  readonly ks_p_value?: number
  readonly ks_complement?: number
  readonly wasserstein_distance?: number
  readonly normalised_wasserstein?: number
  readonly chi_square_statistic?: number
  readonly chi_square_p_value?: number
  readonly tv_distance?: number
}
interface ReferenceCase {
  readonly columns: ReadonlyArray<ReferenceColumn>
  readonly similarity: { readonly ks_test: number; readonly chi_square: number; readonly wasserstein_distance: number }
}
const reference = readFixture<{ cases: Record<string, ReferenceCase> }>("statistical.json")
const cases = { penguins: ["penguins.csv", "penguins_synthetic.csv"], mixed: ["mixed_real.csv", "mixed_synthetic.csv"] } as const

describe("statisticalReport against scipy and SDMetrics (reference/evaluation_reference.py, statistical.json)", () => {
  for (const [name, [realFile, syntheticFile]] of Object.entries(cases)) {
    it(`matches every column's KS, chi-square, Wasserstein and TV figure and the summary on ${name}`, async () => {
      const [real, synthetic] = await Promise.all([loadTable(realFile), loadTable(syntheticFile)])
      const report = statisticalReport(real!, synthetic!)
      const expected = reference.cases[name]!
      expect(report.columns.map(({ column, kind }) => [column, kind])).toEqual(expected.columns.map(({ column, kind }) => [column, kind]))
      report.columns.forEach((actual, i) => {
        const want = expected.columns[i]!
        if (actual.kind === "continuous") {
          expectClose(actual.ksStatistic, want.ks_statistic!)
          expectClose(actual.ksPValue, want.ks_p_value!)
          expectClose(actual.ksComplement, want.ks_complement!)
          expectClose(actual.wassersteinDistance, want.wasserstein_distance!)
          expectClose(actual.normalisedWasserstein, want.normalised_wasserstein!)
          expect(actual.ksMethod).toBe("exact")
        } else {
          expectClose(actual.chiSquareStatistic, want.chi_square_statistic!)
          expectClose(actual.chiSquarePValue, want.chi_square_p_value!)
          expectClose(actual.tvDistance, want.tv_distance!)
        }
      })
      expectClose(report.similarity.ksTest, expected.similarity.ks_test)
      expectClose(report.similarity.chiSquare, expected.similarity.chi_square)
      expectClose(report.similarity.wassersteinDistance, expected.similarity.wasserstein_distance)
    })
  }

  it("carries the Quality Report and every pair's similarity, thresholds off", async () => {
    const [real, synthetic] = await Promise.all([loadTable("mixed_real.csv"), loadTable("mixed_synthetic.csv")])
    const report = statisticalReport(real!, synthetic!)
    expect(report.quality).toEqual(qualityReport(real!, synthetic!))
    expect(report.pairs).toHaveLength((6 * 5) / 2)
    expect(report.pairs.every(({ score }) => score !== null)).toBe(true)
    const counted = report.quality.properties.column_pair_trends.details.filter(({ meets_threshold }) => meets_threshold)
    for (const pair of counted) {
      expect(report.pairs.find(({ column_1, column_2 }) => column_1 === pair.column_1 && column_2 === pair.column_2)?.score).toBe(pair.score)
    }
  })

  it("names the categories a synthetic column leaves out or invents", async () => {
    const [real, synthetic] = await Promise.all([loadTable("mixed_real.csv"), loadTable("mixed_broken.csv")])
    const tier = statisticalReport(real!, { ...synthetic!, columns: synthetic!.columns.map((c) => (c.name === "is_active" ? { ...c, name: "active" } : c)) })
      .columns.find(({ column }) => column === "tier")
    expect(tier).toMatchObject({ kind: "categorical", categoriesNotInReal: ["platinum"], categoriesNotSynthesised: [] })
  })
})
