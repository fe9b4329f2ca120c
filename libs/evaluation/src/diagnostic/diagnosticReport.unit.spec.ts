import { describe, expect, it } from "vitest"
import { expectClose, loadTable, readFixture } from "../statistical/testing/fixtures.ts"
import { diagnosticReport } from "./diagnosticReport.ts"

interface ReferenceReport {
  readonly score: number
  readonly data_validity: { readonly score: number; readonly details: ReadonlyArray<{ column: string; metric: string; score: number | null }> }
  readonly data_structure: { readonly score: number; readonly table_structure: number }
}
const reference = readFixture<{ cases: Record<string, ReferenceReport> }>("diagnostic.json")
const cases = {
  penguins: ["penguins.csv", "penguins_synthetic.csv"],
  mixed: ["mixed_real.csv", "mixed_synthetic.csv"],
  broken: ["mixed_real.csv", "mixed_broken.csv"]
} as const

describe("diagnosticReport against SDMetrics 0.32's DiagnosticReport (reference/evaluation_reference.py)", () => {
  for (const [name, [realFile, syntheticFile]] of Object.entries(cases)) {
    it(`matches the scores and every column's adherence on ${name}`, async () => {
      const [real, synthetic] = await Promise.all([loadTable(realFile), loadTable(syntheticFile)])
      const report = diagnosticReport(real!, synthetic!)
      const expected = reference.cases[name]!
      expectClose(report.score, expected.score)
      expectClose(report.properties.dataValidity.score, expected.data_validity.score)
      expectClose(report.properties.dataStructure.score, expected.data_structure.score)
      expectClose(report.properties.dataStructure.details.score, expected.data_structure.table_structure)
      const details = report.properties.dataValidity.details
      expect(details.map(({ column, metric }) => [column, metric])).toEqual(expected.data_validity.details.map(({ column, metric }) => [column, metric]))
      details.forEach((detail, i) => expectClose(detail.score, expected.data_validity.details[i]!.score))
    })
  }

  it("says what is wrong in the broken table: out-of-range values, an unknown category, a changed type, a renamed column", async () => {
    const [real, synthetic] = await Promise.all([loadTable("mixed_real.csv"), loadTable("mixed_broken.csv")])
    const report = diagnosticReport(real!, synthetic!)
    const amount = report.properties.dataValidity.details.find(({ column }) => column === "amount")!
    expect(amount.metric === "BoundaryAdherence" && amount.outside).toBeGreaterThan(0)
    expect(report.properties.dataValidity.details.find(({ column }) => column === "tier")).toMatchObject({ unknownCategories: ["platinum"] })
    expect(report.properties.dataStructure.details).toMatchObject({
      missingColumns: ["active"],
      extraColumns: ["is_active"],
      typeMismatches: [{ column: "count", real: "Int64", synthetic: "float64" }]
    })
  })
})
