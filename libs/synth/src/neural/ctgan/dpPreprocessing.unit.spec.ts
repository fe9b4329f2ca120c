import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { budgetSplit, deltaSplit } from "../../privacy/index.ts"
import { makeRandom } from "../../random.ts"
import type { SynthColumn, SynthTable } from "../../table.ts"
import { DEFAULT_MAX_CATEGORIES } from "../../transform/index.ts"
import { privateSpecsOf, publicSchemaOf } from "../../transform/privateSpecs.ts"
import { dpPreprocess } from "./dpPreprocessing.ts"

/** A random column of any kind for `rows` rows, with missing values or not. */
const columnOf = (kind: number, name: string, rows: number, seed: number): SynthColumn => {
  const random = makeRandom(seed)
  const missing = random.next() < 0.5 ? Uint8Array.from({ length: rows }, () => (random.next() < 0.2 ? 1 : 0)) : null
  switch (kind) {
    case 0:
      return { kind: "continuous", name, type: "float", values: Float64Array.from({ length: rows }, () => random.normal() * 1000), missing, sourceFormat: null }
    case 1:
      return { kind: "continuous", name, type: "integer", values: Float64Array.from({ length: rows }, () => random.integer(100)), missing, sourceFormat: null }
    case 2:
      return { kind: "continuous", name, type: "datetime", values: Float64Array.from({ length: rows }, () => 1.7e12 + random.integer(1e9)), missing, sourceFormat: null }
    case 3:
      return { kind: "categorical", name, type: "boolean", categories: ["false", "true"], codes: Int32Array.from({ length: rows }, () => random.integer(3) - 1) }
    default: {
      const labels = Array.from({ length: 1 + random.integer(30) }, (_, k) => `label-${k}`)
      return { kind: "categorical", name, type: "string", categories: labels, codes: Int32Array.from({ length: rows }, () => random.integer(labels.length + 1) - 1) }
    }
  }
}

describe("DP-CTGAN's preprocessing", () => {
  it("spends at most its share of ε and δ over many tables, one release per statistic, and builds everything from them", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.05, max: 50, noNaN: true }),
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (targetEpsilon, rows, kinds, seed) => {
          const table: SynthTable = { rowCount: rows, columns: kinds.map((kind, i) => columnOf(kind, `c${i}`, rows, seed + i)) }
          const prepared = dpPreprocess(table, targetEpsilon, makeRandom(seed))
          const share = budgetSplit(targetEpsilon).preprocessing
          expect(prepared.epsilon).toBeLessThanOrEqual(share)
          expect(prepared.epsilon).toBeGreaterThan(share * (1 - 1e-8))
          expect(prepared.delta).toBeLessThanOrEqual(deltaSplit(prepared.rows).preprocessing)
          expect(prepared.epsilon).toBe(prepared.releases.reduce((sum, release) => sum + release.epsilon, 0))

          const continuous = table.columns.filter((column) => column.kind === "continuous").length
          const tags = prepared.releases.map((release) => release._tag)
          expect(tags.filter((tag) => tag === "count")).toHaveLength(1)
          expect(tags.filter((tag) => tag === "histogram")).toHaveLength(continuous)
          expect(tags.filter((tag) => tag === "quantile")).toHaveLength(2 * continuous)
          expect(tags.filter((tag) => tag === "categories")).toHaveLength(table.columns.length - continuous)
          const count = prepared.releases.find((release) => release._tag === "count")!
          expect(prepared.rows).toBe(Math.max(1, count._tag === "count" ? count.count : NaN))

          const rebuilt = privateSpecsOf(publicSchemaOf(table), prepared.releases, DEFAULT_MAX_CATEGORIES)
          expect(prepared.transformer.columns).toEqual(rebuilt.specs)
          expect(prepared.slotWeights).toEqual(rebuilt.slotWeights)
          expect(prepared.table.rowCount).toBe(rows)
          // The training rows: every number within its released bounds, every label a released one (encode throws otherwise).
          prepared.table.columns.forEach((column, i) => {
            const spec = prepared.transformer.columns[i]!
            if (column.kind === "continuous" && spec.kind === "continuous") {
              expect(column.values.every((value) => value >= spec.min && value <= spec.max)).toBe(true)
            }
          })
          prepared.transformer.encode(prepared.table, Int32Array.from({ length: rows }, (_, i) => i), makeRandom(1))
        }
      ),
      { numRuns: 200 }
    )
  })
})
