import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { CategoricalColumn, ContinuousColumn, SynthColumn, SynthTable } from "../../table.ts"
import { constraintBreaks } from "../rowRules.ts"
import type { Constraint } from "../rules.ts"
import { constraintTransformsFromJSON, fitConstraintTransforms, fixedCombinationGroups } from "./constraintTransforms.ts"

const rows = 60

const continuous = (name: string, type: ContinuousColumn["type"], values: ArrayLike<number>, missing: ArrayLike<number> | null = null): ContinuousColumn => ({
  kind: "continuous",
  name,
  type,
  values: Float64Array.from(values),
  missing: missing === null ? null : Uint8Array.from(missing),
  sourceFormat: type === "date" ? "MM/DD/YYYY" : null
})

const categorical = (name: string, categories: ReadonlyArray<string>, codes: ArrayLike<number>): CategoricalColumn => ({
  kind: "categorical",
  name,
  type: "string",
  categories,
  codes: Int32Array.from(codes)
})

/** A learned table where every constraint below holds: dates in order, a discount in [0, 0.5], places in pairs. */
const learned: SynthTable = {
  rowCount: rows,
  columns: [
    continuous("ordered_at", "date", Array.from({ length: rows }, (_, i) => 19_000 + (i % 30)), Array.from({ length: rows }, (_, i) => (i % 13 === 0 ? 1 : 0))),
    continuous("shipped_at", "date", Array.from({ length: rows }, (_, i) => 19_000 + (i % 30) + (i % 5)), Array.from({ length: rows }, (_, i) => (i % 17 === 0 ? 1 : 0))),
    continuous("delivered_at", "date", Array.from({ length: rows }, (_, i) => 19_000 + (i % 30) + (i % 5) + 1 + (i % 3))),
    continuous("discount", "float", Array.from({ length: rows }, (_, i) => (i % 4 === 0 ? 0 : (i % 51) / 100))),
    continuous("price", "float", Array.from({ length: rows }, (_, i) => 0.5 + (i * 37 % 200) / 10)),
    categorical("city", ["Paris", "Lyon", "Berlin"], Array.from({ length: rows }, (_, i) => i % 3)),
    categorical("country", ["France", "Germany"], Array.from({ length: rows }, (_, i) => (i % 3 === 2 ? 1 : 0))),
    categorical("region", ["west", "east"], Array.from({ length: rows }, (_, i) => (i % 3 === 2 ? 1 : 0)))
  ]
}

const constraints: ReadonlyArray<Constraint> = [
  { type: "inequality", low: "ordered_at", high: "shipped_at", strict: false },
  { type: "inequality", low: "shipped_at", high: "delivered_at", strict: true },
  { type: "range", column: "discount", min: 0, max: 0.5, strict: false },
  { type: "positive", column: "price", strict: true },
  { type: "fixed_combinations", columns: ["city", "country"] },
  { type: "fixed_combinations", columns: ["country", "region"] }
]

const valuesOf = (column: SynthColumn) =>
  column.kind === "continuous"
    ? Array.from(column.values, (value, row) => (column.missing?.[row] === 1 ? null : value))
    : Array.from(column.codes, (code) => (code < 0 ? null : column.categories[code]!))

const combinations = (table: SynthTable, names: ReadonlyArray<string>) => {
  const columns = names.map((name) => table.columns.find((column) => column.name === name)!).map(valuesOf)
  return new Set(Array.from({ length: table.rowCount }, (_, row) => JSON.stringify(columns.map((values) => values[row]))))
}

/**
 * What any model might draw for the transformed table: numbers far beyond what it learned (±12: differences of
 * e¹² days, sigmoids at 1e-5 of a bound), any category, any missing value.
 */
const anyModelOutput = (shape: SynthTable, seed: number): SynthTable => {
  let state = seed
  const next = () => ((state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32)
  return {
    rowCount: 500,
    columns: shape.columns.map((column): SynthColumn => {
      if (column.kind === "categorical") return { ...column, codes: Int32Array.from({ length: 500 }, () => Math.floor(next() * column.categories.length)) }
      const missing = column.missing === null ? null : Uint8Array.from({ length: 500 }, () => (next() < 0.1 ? 1 : 0))
      return { ...column, values: Float64Array.from({ length: 500 }, () => (next() - 0.5) * 24), missing }
    })
  }
}

describe("constraint transforms", () => {
  const transforms = fitConstraintTransforms(constraints, learned)
  const modelTable = transforms.forward(learned)

  it("replace each constrained column by what the model learns instead, and merge overlapping fixed combinations", () => {
    expect(fixedCombinationGroups(constraints)).toEqual([["city", "country", "region"]])
    expect(modelTable.columns.map((column) => `${column.name}:${column.type}`)).toEqual([
      "ordered_at:date",
      "log(shipped_at - ordered_at):float",
      "shipped_at where ordered_at is missing:float",
      "log(delivered_at - shipped_at):float",
      "delivered_at where shipped_at is missing:float",
      "logit(discount):float",
      "log(distance of price to its bound):float",
      "city & country & region:string"
    ])
    expect(modelTable.columns.every((column) => column.kind === "categorical" || column.values.every(Number.isFinite))).toBe(true)
  })

  it("turn the learned table back into itself", () => {
    const restored = transforms.reverse(modelTable)
    expect(restored.columns.map((column) => [column.name, column.type])).toEqual(learned.columns.map((column) => [column.name, column.type]))
    restored.columns.forEach((column, index) => {
      const original = learned.columns[index]!
      if (column.kind === "categorical") expect(valuesOf(column)).toEqual(valuesOf(original))
      else valuesOf(column).forEach((value, row) => expect(value).toBeCloseTo(valuesOf(original)[row] as number, 9))
      if (column.kind === "continuous") expect(column.sourceFormat).toBe((original as ContinuousColumn).sourceFormat)
    })
  })

  it("turn whatever a model draws into rows obeying every constraint, on the columns' grids", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 31 }), (seed) => {
      const restored = transforms.reverse(anyModelOutput(modelTable, seed))
      expect(constraintBreaks(restored, constraints)).toEqual([0, 0, 0, 0, 0, 0])
      for (const name of ["city", "country", "region"]) expect([...combinations(restored, [name])].every((label) => combinations(learned, [name]).has(label))).toBe(true)
      expect([...combinations(restored, ["city", "country", "region"])].every((combination) => combinations(learned, ["city", "country", "region"]).has(combination))).toBe(true)
      const onGrid = (name: string, step: number) => {
        const column = restored.columns.find((candidate) => candidate.name === name) as ContinuousColumn
        return column.values.every((value) => Math.abs(value / step - Math.round(value / step)) < 1e-6)
      }
      expect(onGrid("shipped_at", 1) && onGrid("delivered_at", 1) && onGrid("discount", 0.01) && onGrid("price", 0.1)).toBe(true)
    }), { numRuns: 25 })
  })

  it("are stored and read back to the same reversal", () => {
    const stored = constraintTransformsFromJSON(JSON.parse(JSON.stringify(transforms.toJSON())))
    if ("error" in stored) throw new Error(stored.error)
    const drawn = anyModelOutput(modelTable, 5)
    expect(stored.reverse(drawn)).toEqual(transforms.reverse(drawn))
    expect(constraintTransformsFromJSON({ columns: [], transforms: [{ kind: "magic" }] })).toEqual({
      error: 'a constraint transform cannot be read: transform 0: its kind "magic" is not one this version knows'
    })
  })

  it("leave a column to rejection when another transform already replaces or reads it", () => {
    const conflicting = fitConstraintTransforms([
      { type: "range", column: "shipped_at", min: "2022-01-01", max: null, strict: false },
      { type: "inequality", low: "ordered_at", high: "shipped_at", strict: false },
      { type: "inequality", low: "discount", high: "price", strict: false },
      { type: "positive", column: "discount", strict: false }
    ], learned)
    expect(conflicting.forward(learned).columns.map((column) => column.name)).toEqual([
      "ordered_at",
      "log(distance of shipped_at to its bound)",
      "delivered_at",
      "discount",
      "log(price - discount)",
      "city",
      "country",
      "region"
    ])
    expect(conflicting.keepsColumn("city")).toBe(true)
    expect(conflicting.keepsColumn("price")).toBe(false)
  })

  it("meet a one-sided range from above and a strict range on whole numbers", () => {
    const ages: SynthTable = { rowCount: 4, columns: [continuous("age", "integer", [18, 30, 64, 65])] }
    const rules: ReadonlyArray<Constraint> = [{ type: "range", column: "age", min: 17, max: 66, strict: true }]
    const fitted = fitConstraintTransforms(rules, ages)
    const drawn = anyModelOutput(fitted.forward(ages), 3)
    const restored = fitted.reverse(drawn)
    expect(constraintBreaks(restored, rules)).toEqual([0])
    expect(Math.min(...(restored.columns[0] as ContinuousColumn).values)).toBe(18)
    const capped = fitConstraintTransforms([{ type: "range", column: "age", min: null, max: 70, strict: false }], ages)
    const back = capped.reverse(anyModelOutput(capped.forward(ages), 4)).columns[0] as ContinuousColumn
    expect(back.values.every((value) => value <= 70 && Number.isInteger(value))).toBe(true)
  })
})
