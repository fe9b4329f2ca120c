import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { qualityReport } from "./qualityReport.ts"
import { synthTableFromCsv } from "./testing/synthTableFromCsv.ts"

const path = (relative: string) => fileURLToPath(new URL(relative, import.meta.url))
const fixtures = "../../reference/fixtures/"

interface ReferenceReport {
  readonly score: number
  readonly column_shapes: { readonly score: number; readonly details: ReadonlyArray<{ column: string; metric: string; score: number | null }> }
  readonly column_pair_trends: {
    readonly score: number
    readonly details: ReadonlyArray<{
      column_1: string; column_2: string; metric: string; score: number | null
      real_correlation: number | null; synthetic_correlation: number | null; real_association: number | null; meets_threshold: boolean | null
    }>
  }
}
const reference = JSON.parse(readFileSync(path(`${fixtures}quality.json`), "utf8")) as {
  readonly cases: Record<string, { default_thresholds: ReferenceReport; no_thresholds: ReferenceReport }>
}

const cases = {
  penguins: ["../../../../test/fixtures/datasets/penguins.csv", `${fixtures}penguins_synthetic.csv`],
  mixed: [`${fixtures}mixed_real.csv`, `${fixtures}mixed_synthetic.csv`]
} as const

const close = (actual: number | null, expected: number | null) => {
  if (expected === null) expect(actual).toBeNull()
  else expect(Math.abs(actual! - expected)).toBeLessThan(1e-9)
}

describe("qualityReport against SDMetrics 0.32 (reference/quality_reference.py)", () => {
  for (const [name, [realPath, syntheticPath]] of Object.entries(cases)) {
    for (const variant of ["default_thresholds", "no_thresholds"] as const) {
      it(`matches every score and detail on ${name}, ${variant.replace("_", " ")}`, async () => {
        const real = await synthTableFromCsv(path(realPath))
        const synthetic = await synthTableFromCsv(path(syntheticPath))
        const thresholds = variant === "default_thresholds" ? {} : { realCorrelationThreshold: 0, realAssociationThreshold: 0 }
        const report = qualityReport(real, synthetic, thresholds)
        const expected = reference.cases[name]![variant]
        close(report.score, expected.score)
        close(report.properties.column_shapes.score, expected.column_shapes.score)
        close(report.properties.column_pair_trends.score, expected.column_pair_trends.score)
        expect(report.properties.column_shapes.details.map(({ column, metric }) => [column, metric])).toEqual(
          expected.column_shapes.details.map(({ column, metric }) => [column, metric])
        )
        report.properties.column_shapes.details.forEach((detail, i) => close(detail.score, expected.column_shapes.details[i]!.score))
        const trends = report.properties.column_pair_trends.details
        expect(trends.map(({ column_1, column_2, metric }) => [column_1, column_2, metric])).toEqual(
          expected.column_pair_trends.details.map(({ column_1, column_2, metric }) => [column_1, column_2, metric])
        )
        trends.forEach((detail, i) => {
          const want = expected.column_pair_trends.details[i]!
          close(detail.score, want.score)
          close(detail.real_correlation, want.real_correlation)
          close(detail.synthetic_correlation, want.synthetic_correlation)
          close(detail.real_association, want.real_association)
          expect(detail.meets_threshold).toBe(want.meets_threshold)
        })
      })
    }
  }

  it("scores a table against itself as 1", async () => {
    const real = await synthTableFromCsv(path(cases.penguins[0]))
    expect(qualityReport(real, real).score).toBeCloseTo(1, 12)
  })
})
