import { makeRandom } from "@synth/synth"
import { describe, expect, it } from "vitest"
import { loadTable } from "../statistical/testing/fixtures.ts"
import { randomBaseline } from "./randomBaseline.ts"

describe("randomBaseline (SDMetrics' DCRBaselineProtection random rows)", () => {
  it("draws each column uniformly within the real column's values, with its missing share, reproducibly", async () => {
    const real = await loadTable("mixed_real.csv")
    const rows = 10_000
    const baseline = randomBaseline(real, rows, makeRandom(3))
    expect(randomBaseline(real, rows, makeRandom(3))).toEqual(baseline)
    expect(baseline.rowCount).toBe(rows)
    real.columns.forEach((column, index) => {
      const drawn = baseline.columns[index]!
      expect(drawn.name).toBe(column.name)
      if (column.kind === "categorical" && drawn.kind === "categorical") {
        const present = new Set(column.codes.filter((code) => code >= 0))
        const seen = new Set(drawn.codes.filter((code) => code >= 0))
        expect(seen).toEqual(present)
        const realMissing = column.codes.filter((code) => code < 0).length / column.codes.length
        expect(Math.abs(drawn.codes.filter((code) => code < 0).length / rows - realMissing)).toBeLessThan(0.01)
      } else if (column.kind === "continuous" && drawn.kind === "continuous") {
        const present = column.values.filter((_, i) => column.missing?.[i] !== 1)
        const min = Math.min(...present), max = Math.max(...present)
        const values = drawn.values.filter((_, i) => drawn.missing?.[i] !== 1)
        expect(Math.min(...values)).toBeGreaterThanOrEqual(min)
        expect(Math.max(...values)).toBeLessThanOrEqual(max)
        // Uniform: the mean sits mid-range (within 2 % of the range at 10,000 rows).
        const mean = values.reduce((sum, value) => sum + value, 0) / values.length
        expect(Math.abs(mean - (min + max) / 2)).toBeLessThan(0.02 * (max - min))
        if (column.type === "integer") expect(values.every(Number.isInteger)).toBe(true)
        const realMissing = (column.values.length - present.length) / column.values.length
        expect(Math.abs((rows - values.length) / rows - realMissing)).toBeLessThan(0.01)
      }
    })
  })
})
