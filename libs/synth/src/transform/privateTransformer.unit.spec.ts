import { describe, expect, it } from "vitest"
import { privacyLedger } from "../privacy/ledger.ts"
import { makeRandom } from "../random.ts"
import type { CategoricalColumn, ContinuousColumn, SynthTable } from "../table.ts"
import { DP_MODES, privateSpecsOf, publicSchemaOf } from "./privateSpecs.ts"
import { fitPrivateTableTransformer } from "./privateTransformer.ts"
import { DEFAULT_MAX_CATEGORIES } from "./tableTransformer.ts"

const rows = 2000
const OUTLIER = 9_876_543.21

/** Incomes with one outlier and 10% missing, ages, sign-up days, a city with two rare labels, a boolean, and ids (all unique). */
const table: SynthTable = {
  rowCount: rows,
  columns: [
    {
      kind: "continuous",
      name: "income",
      type: "float",
      values: Float64Array.from({ length: rows }, (_, i) => (i === 7 ? OUTLIER : 20_000 + ((i * 7919) % 50_000) + 0.25)),
      missing: Uint8Array.from({ length: rows }, (_, i) => (i % 10 === 3 ? 1 : 0)),
      sourceFormat: null
    },
    { kind: "continuous", name: "age", type: "integer", values: Float64Array.from({ length: rows }, (_, i) => 18 + (i % 60)), missing: null, sourceFormat: null },
    { kind: "continuous", name: "signup", type: "date", values: Float64Array.from({ length: rows }, (_, i) => 19_000 + (i % 365)), missing: null, sourceFormat: "YYYY-MM-DD" },
    {
      kind: "categorical",
      name: "city",
      type: "string",
      categories: ["Paris", "Lyon", "Smallville", "Nice", "Tinytown"],
      codes: Int32Array.from({ length: rows }, (_, i) => (i === 11 ? 2 : i === 12 ? 4 : i % 5 === 0 ? 3 : i % 2))
    },
    { kind: "categorical", name: "subscribed", type: "boolean", categories: ["false", "true"], codes: Int32Array.from({ length: rows }, (_, i) => (i % 3 === 0 ? 1 : 0)) },
    { kind: "categorical", name: "id", type: "string", categories: Array.from({ length: rows }, (_, i) => `id-${i}`), codes: Int32Array.from({ length: rows }, (_, i) => i) }
  ]
}

const allocation = { epsilon: 0.5, delta: 1e-7 }
const allocations = table.columns.map((column) => (column.kind === "categorical" && column.type === "string" ? allocation : { ...allocation, delta: 0 }))

const fit = () => {
  const ledger = privacyLedger()
  return { ledger, ...fitPrivateTableTransformer(table, allocations, ledger, makeRandom(3)) }
}

const column = <T>(synth: SynthTable, name: string) => synth.columns.find((candidate) => candidate.name === name) as T

describe("the private table transformer", () => {
  it("spends each column's allocation through the ledger, and is a function of the releases and the schema", () => {
    const { ledger, slotWeights, transformer } = fit()
    expect(ledger.releases().map(({ _tag, ...release }) => [_tag, "column" in release ? release.column : null])).toEqual([
      ["histogram", "income"], ["quantile", "income"], ["quantile", "income"],
      ["histogram", "age"], ["quantile", "age"], ["quantile", "age"],
      ["histogram", "signup"], ["quantile", "signup"], ["quantile", "signup"],
      ["categories", "city"], ["categories", "subscribed"], ["categories", "id"]
    ])
    expect(ledger.epsilon()).toBeCloseTo(allocations.reduce((sum, { epsilon }) => sum + epsilon, 0), 12)
    expect(ledger.delta()).toBe(2e-7)
    const rebuilt = privateSpecsOf(publicSchemaOf(table), ledger.releases(), DEFAULT_MAX_CATEGORIES)
    expect(transformer.columns).toEqual(rebuilt.specs)
    expect(slotWeights).toEqual(rebuilt.slotWeights)
  })

  it("bounds numbers by the released quantiles, never by a real extreme, with equal-width modes", () => {
    const { ledger, transformer } = fit()
    const income = transformer.columns[0]!
    if (income.kind !== "continuous") throw new Error("income is numeric")
    const quantiles = ledger.releases().filter((release) => release._tag === "quantile" && release.column === "income")
    expect([income.min, income.max]).toEqual(quantiles.map((release) => (release._tag === "quantile" ? release.value : NaN)).sort((a, b) => a - b))
    expect(income.max).toBeLessThan(OUTLIER)
    const present = table.columns[0] as ContinuousColumn
    expect(present.values.includes(income.min)).toBe(false)
    expect(present.values.includes(income.max)).toBe(false)
    expect(income.modes.means).toHaveLength(DP_MODES)
    const width = (income.max - income.min) / DP_MODES
    income.modes.means.forEach((mean, k) => expect(mean).toBeCloseTo(income.min + (k + 0.5) * width, 6))
    expect(income.fill).toBe((income.min + income.max) / 2)
    expect(income.rounding).toEqual({ decimals: 2 })
  })

  it("trains on rows clamped to the bounds, with unreleased labels redrawn among the released ones", () => {
    const { table: rowsOut, transformer } = fit()
    expect(rowsOut.rowCount).toBe(rows)
    const income = column<ContinuousColumn>(rowsOut, "income")
    const spec = transformer.columns[0]!
    if (spec.kind !== "continuous") throw new Error("income is numeric")
    expect(income.values.every((value) => value >= spec.min && value <= spec.max)).toBe(true)
    expect(spec.hasMissing).toBe(true)
    expect(income.missing).toEqual((table.columns[0] as ContinuousColumn).missing)
    const city = column<CategoricalColumn>(rowsOut, "city")
    expect(city.categories).toEqual(["Lyon", "Nice", "Paris"])
    expect(Array.from(city.codes).every((code) => code >= 0 && code < 3)).toBe(true)
    const source = table.columns[3] as CategoricalColumn
    // Rows whose label was released keep it.
    for (let row = 0; row < rows; row++) {
      if (row !== 11 && row !== 12 && city.categories[city.codes[row]!] !== source.categories[source.codes[row]!]) throw new Error(`row ${row} changed`)
    }
  })

  it("makes a string column none of whose labels is released a column of missing values", () => {
    const { table: rowsOut, transformer } = fit()
    const id = column<CategoricalColumn>(rowsOut, "id")
    expect(id.categories).toEqual([])
    expect(Array.from(id.codes).every((code) => code === -1)).toBe(true)
    expect(transformer.columns[5]).toMatchObject({ categories: [], slotCategories: [], hasMissing: true })
  })

  it("encodes and decodes within the released bounds and labels", () => {
    const { table: rowsOut, transformer } = fit()
    const random = makeRandom(1)
    const all = Int32Array.from({ length: rows }, (_, i) => i)
    const decoder = transformer.decoder(rows, makeRandom(2))
    decoder.write(transformer.encode(rowsOut, all, random), rows)
    const decoded = decoder.finish()
    const spec = transformer.columns[0]!
    if (spec.kind !== "continuous") throw new Error("income is numeric")
    const income = column<ContinuousColumn>(decoded, "income")
    expect(income.values.every((value, row) => income.missing?.[row] === 1 || (value >= spec.min - 0.005 && value <= spec.max + 0.005))).toBe(true)
    expect(column<CategoricalColumn>(decoded, "city").categories).toEqual(["Lyon", "Nice", "Paris"])
  })
})
