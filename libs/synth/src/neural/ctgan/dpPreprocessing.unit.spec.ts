import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { budgetSplit, deltaSplit } from "../../privacy/index.ts"
import { makeRandom } from "../../random.ts"
import type { SynthColumn, SynthTable } from "../../table.ts"
import { DEFAULT_MAX_CATEGORIES } from "../../transform/index.ts"
import { privateSpecsOf, publicSchemaOf } from "../../transform/privateSpecs.ts"
import { dpPreprocess } from "./dpPreprocessing.ts"
import { COMMON_CITIES, customersTable, ONE_ROW_CITY, OUTLIER_INCOME } from "./testing/customersTable.ts"

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

  it("treats two tables that differ in one row alike: the row's extreme income and unique city never show", () => {
    const table = customersTable(600, 21)
    const income = table.columns[0]!
    const city = table.columns[3]!
    if (income.kind !== "continuous" || city.kind !== "categorical") throw new Error("the customers table's columns")
    const outlierRow = income.values.indexOf(OUTLIER_INCOME)
    const cityRow = city.codes.indexOf(city.categories.indexOf(ONE_ROW_CITY))
    const keep = Array.from({ length: table.rowCount }, (_, row) => row).filter((row) => row !== outlierRow && row !== cityRow)
    const neighbour: SynthTable = {
      rowCount: keep.length,
      columns: table.columns.map((column) =>
        column.kind === "continuous"
          ? { ...column, values: Float64Array.from(keep, (row) => column.values[row]!), missing: column.missing === null ? null : Uint8Array.from(keep, (row) => column.missing![row]!) }
          : { ...column, codes: Int32Array.from(keep, (row) => column.codes[row]!) })
    }
    const uppers = { with: [] as Array<number>, without: [] as Array<number> }
    for (let seed = 0; seed < 200; seed++) {
      for (const [key, source] of [["with", table], ["without", neighbour]] as const) {
        const { transformer } = dpPreprocess(source, 5, makeRandom(seed))
        const [incomeSpec, , , citySpec] = transformer.columns
        if (incomeSpec?.kind !== "continuous" || citySpec?.kind !== "categorical") throw new Error("the customers table's specs")
        expect(citySpec.categories).toEqual([...COMMON_CITIES].sort())
        uppers[key].push(incomeSpec.max)
      }
    }
    // Every upper bound lies within the bins the others fill (the outlier's bin, 2^23 to 2^24, never passes), and the
    // outlier moves the bound's typical value by less than one candidate step of the approximate range.
    for (const bounds of [uppers.with, uppers.without]) expect(Math.max(...bounds)).toBeLessThan(2 ** 20)
    const median = (values: Array<number>) => [...values].sort((a, b) => a - b)[values.length >> 1]!
    expect(Math.abs(median(uppers.with) - median(uppers.without))).toBeLessThanOrEqual(2 ** 20 / 1024)
  })
})
