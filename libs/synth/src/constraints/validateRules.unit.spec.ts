import { describe, expect, it } from "vitest"
import type { SynthTable } from "../table.ts"
import { factsOfProfile, factsOfTable } from "./datasetFacts.ts"
import { validateRules } from "./validateRules.ts"

const days = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000

/** Orders: dates, places, a discount, an id, a churn flag and an age; row 3 was shipped before it was ordered. */
const table: SynthTable = {
  rowCount: 6,
  columns: [
    { kind: "continuous", name: "ordered_at", type: "date", values: Float64Array.from([1, 2, 3, 4, 5, 6].map((d) => days("2024-01-01") + d)), missing: null, sourceFormat: null },
    {
      kind: "continuous",
      name: "shipped_at",
      type: "date",
      values: Float64Array.from([3, 2, 9, 1, 0, 8].map((d) => days("2024-01-01") + d)),
      missing: Uint8Array.from([0, 0, 0, 0, 1, 0]),
      sourceFormat: null
    },
    { kind: "categorical", name: "city", type: "string", categories: ["Paris", "Berlin"], codes: Int32Array.from([0, 1, 0, 1, 0, 1]) },
    { kind: "continuous", name: "discount", type: "float", values: Float64Array.from([0, 0.1, 0.25, 0.5, 0, 0.4]), missing: null, sourceFormat: null },
    { kind: "continuous", name: "employee_id", type: "integer", values: Float64Array.from([1, 2, 3, 3, 5, 5]), missing: null, sourceFormat: null },
    { kind: "categorical", name: "churned", type: "boolean", categories: ["false", "true"], codes: Int32Array.from([0, 1, 0, 0, 1, 0]) },
    { kind: "continuous", name: "age", type: "integer", values: Float64Array.from([25, 31, 44, 52, 38, 60]), missing: null, sourceFormat: null }
  ]
}

const onTable = (request: { constraints?: unknown; conditions?: unknown }) => validateRules(request, factsOfTable(table), table)
const problemsOf = (request: { constraints?: unknown; conditions?: unknown }) => {
  const validated = onTable(request)
  return validated.ok ? [] : validated.problems
}
const fields = (request: { constraints?: unknown; conditions?: unknown }) => problemsOf(request).map((problem) => problem.field)

describe("validateRules", () => {
  it("parses every constraint type and condition kind, with their defaults (the inequality's: below, where the data breaks it)", () => {
    const valid = onTable({
      constraints: [
        { type: "fixed_combinations", columns: ["city", "churned"] },
        { type: "range", column: "discount", min: 0, max: 0.5 },
        { type: "unique", columns: ["city", "age"] },
        { type: "positive", column: "age", strict: true },
        { type: "range", column: "shipped_at", min: "2024-01-01" }
      ],
      conditions: { churned: "Yes", age: { min: 30, max: 40 }, city: "Paris", ordered_at: "2024-01-03" }
    })
    expect(valid).toEqual({
      ok: true,
      rules: {
        constraints: [
          { type: "fixed_combinations", columns: ["city", "churned"] },
          { type: "range", column: "discount", min: 0, max: 0.5, strict: false },
          { type: "unique", columns: ["city", "age"] },
          { type: "positive", column: "age", strict: true },
          { type: "range", column: "shipped_at", min: "2024-01-01", max: null, strict: false }
        ],
        conditions: [
          { kind: "equals", column: "churned", value: true },
          { kind: "between", column: "age", min: 30, max: 40 },
          { kind: "equals", column: "city", value: "Paris" },
          { kind: "equals", column: "ordered_at", value: "2024-01-03" }
        ]
      }
    })
  })

  it("accepts a request without rules", () => {
    expect(onTable({})).toEqual({ ok: true, rules: { constraints: [], conditions: [] } })
  })

  it("names the field of each problem: unknown column, wrong type, min above max, unknown type, unknown field", () => {
    expect(problemsOf({
      constraints: [
        { type: "inequality", low: "ordered", high: "shipped_at" },
        { type: "inequality", low: "ordered_at", high: "age" },
        { type: "range", column: "discount", min: 0.5, max: 0.1 },
        { type: "fixed_combinations", columns: ["city", "age"] },
        { type: "less_than", column: "age" },
        { type: "positive", column: "age", maximum: 3 },
        { type: "unique", columns: [] },
        { type: "range", column: "shipped_at", min: 3 },
        "positive"
      ],
      conditions: { age: { min: 40, max: 30 }, income: 3, churned: "maybe", city: 3, discount: { mean: 1 } }
    })).toEqual([
      { field: "constraints[0].low", message: 'unknown column "ordered"' },
      { field: "constraints[1].high", message: "age is an integer column and ordered_at a date column: an inequality compares two number columns, two dates or two datetimes" },
      { field: "constraints[2].min", message: "min 0.5 is above max 0.1" },
      { field: "constraints[3].columns[1]", message: "age is an integer column; a fixed_combinations constraint takes string or boolean columns" },
      { field: "constraints[4].type", message: 'unknown constraint type "less_than": one of inequality, fixed_combinations, range, unique, positive' },
      { field: "constraints[5].maximum", message: "is not a field of a positive constraint (its fields: type, column, strict)" },
      { field: "constraints[6].columns", message: "must be a list of at least 1 column name" },
      { field: "constraints[7].min", message: "shipped_at is a date column: min must be an ISO 8601 date (YYYY-MM-DD)" },
      { field: "constraints[8]", message: 'must be an object with a "type" (one of inequality, fixed_combinations, range, unique, positive)' },
      { field: "conditions.age.min", message: "min 40 is above max 30" },
      { field: "conditions.income", message: 'unknown column "income"' },
      { field: "conditions.churned", message: 'churned is a boolean column: the condition is true or false (or "yes"/"no")' },
      { field: "conditions.city", message: "city is a string column: the condition is one of its values, as text" },
      { field: "conditions.discount.mean", message: "is not a field of a range condition (min, max)" }
    ])
  })

  it("refuses a condition the data never meets: a label it lacks, a range beside its values", () => {
    expect(problemsOf({ conditions: { city: "Rome", age: { min: 70 }, ordered_at: "2023-05-01" } })).toEqual([
      { field: "conditions.city", message: '"Rome" never occurs in city in the data' },
      { field: "conditions.age", message: "no value of age in the data lies in that range (the data's age runs from 25 to 60)" },
      { field: "conditions.ordered_at", message: "2023-05-01 lies outside the data's values (the data's ordered_at runs from 2024-01-02 to 2024-01-07)" }
    ])
  })

  it("counts the rows of the data each constraint breaks", () => {
    expect(problemsOf({
      constraints: [
        { type: "inequality", low: "ordered_at", high: "shipped_at" },
        { type: "range", column: "discount", min: 0, max: 0.4 },
        { type: "unique", columns: ["employee_id"] },
        { type: "positive", column: "discount", strict: true },
        { type: "fixed_combinations", columns: ["city", "churned"] }
      ]
    })).toEqual([
      { field: "constraints[0]", message: "constraint 0 (inequality ordered_at <= shipped_at) is broken by 1 row of the data: the model cannot learn a rule its data does not hold; correct those rows or leave the constraint out" },
      { field: "constraints[1]", message: "constraint 1 (range discount in [0, 0.4]) is broken by 1 row of the data: the model cannot learn a rule its data does not hold; correct those rows or leave the constraint out" },
      { field: "constraints[2]", message: "constraint 2 (unique employee_id) is broken by 2 rows of the data: the model cannot learn a rule its data does not hold; correct those rows or leave the constraint out" },
      { field: "constraints[3]", message: "constraint 3 (positive discount > 0) is broken by 2 rows of the data: the model cannot learn a rule its data does not hold; correct those rows or leave the constraint out" }
    ])
  })

  it("with a profile's facts only (the gateway), finds what the profile shows and leaves the rest to the worker", () => {
    const profile = {
      row_count: 6,
      columns: [
        { name: "ordered_at", type: "date" as const, missing_count: 0, unique_count: 6, min: "2024-01-02", max: "2024-01-07" },
        { name: "shipped_at", type: "date" as const, missing_count: 1, unique_count: 5, min: "2024-01-01", max: "2024-01-10" },
        { name: "city", type: "string" as const, missing_count: 0, unique_count: 2, most_frequent: ["Berlin", "Paris"], most_frequent_masked: false },
        { name: "discount", type: "float" as const, missing_count: 0, unique_count: 5, min: 0, max: 0.5 },
        { name: "employee_id", type: "integer" as const, missing_count: 0, unique_count: 4, min: 1, max: 5 },
        { name: "churned", type: "boolean" as const, missing_count: 0, unique_count: 2, most_frequent: ["false", "true"], most_frequent_masked: false },
        { name: "age", type: "integer" as const, missing_count: 0, unique_count: 6, min: 25, max: 60 }
      ]
    }
    const validated = validateRules({
      constraints: [
        { type: "inequality", low: "ordered_at", high: "shipped_at" },
        { type: "range", column: "discount", min: 0, max: 0.4 },
        { type: "unique", columns: ["employee_id"] }
      ],
      conditions: { city: "Rome", churned: "no" }
    }, factsOfProfile(profile))
    expect(validated.ok ? [] : validated.problems.map((problem) => problem.field)).toEqual(["conditions.city"])
    const breaks = validateRules({ constraints: [{ type: "range", column: "discount", min: 0, max: 0.4 }, { type: "unique", columns: ["employee_id"] }] }, factsOfProfile(profile))
    expect(breaks.ok ? [] : breaks.problems.map((problem) => problem.message)).toEqual([
      "constraint 0 (range discount in [0, 0.4]) is broken by the data, whose values reach above the maximum: the model cannot learn a rule its data does not hold; correct those rows or leave the constraint out",
      "constraint 1 (unique employee_id) is broken by 2 rows of the data: the model cannot learn a rule its data does not hold; correct those rows or leave the constraint out"
    ])
  })

  it("says constraints and conditions must be a list and an object", () => {
    expect(fields({ constraints: { type: "unique" }, conditions: ["age"] })).toEqual(["constraints", "conditions"])
  })
})
