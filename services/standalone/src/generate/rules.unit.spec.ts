import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { conditionsOf, parseCondition, parseConstraint } from "./rules.ts"

describe("parseConstraint", () => {
  it("takes JSON as the API takes it, unknown types included (the server names them)", () => {
    expect(parseConstraint('{"type":"unique","columns":["employee_id"]}')).toEqual(Result.succeed({ type: "unique", columns: ["employee_id"] }))
    expect(parseConstraint('{"type":"sideways"}')).toEqual(Result.succeed({ type: "sideways" }))
  })

  it("reads the short forms", () => {
    expect(parseConstraint("ordered_at<=shipped_at")).toEqual(Result.succeed({ type: "inequality", low: "ordered_at", high: "shipped_at", strict: false }))
    expect(parseConstraint("a < b")).toEqual(Result.succeed({ type: "inequality", low: "a", high: "b", strict: true }))
    expect(parseConstraint("discount=0..0.5")).toEqual(Result.succeed({ type: "range", column: "discount", min: 0, max: 0.5 }))
    expect(parseConstraint("born=..2000-01-01")).toEqual(Result.succeed({ type: "range", column: "born", min: null, max: "2000-01-01" }))
    expect(parseConstraint("positive:price")).toEqual(Result.succeed({ type: "positive", column: "price" }))
    expect(parseConstraint("unique:a, b")).toEqual(Result.succeed({ type: "unique", columns: ["a", "b"] }))
    expect(parseConstraint("fixed:city,country")).toEqual(Result.succeed({ type: "fixed_combinations", columns: ["city", "country"] }))
  })

  it("says what it takes when it cannot read one", () => {
    expect(Result.getFailure(parseConstraint("price"))).toEqual(expect.objectContaining({ value: expect.stringContaining("short form") }))
    expect(Result.isFailure(parseConstraint("{oops"))).toBe(true)
    expect(Result.isFailure(parseConstraint("[1]"))).toBe(true)
  })
})

describe("parseCondition", () => {
  it("reads values and ranges, numbers as numbers", () => {
    expect(parseCondition("churned=Yes")).toEqual(Result.succeed(["churned", "Yes"]))
    expect(parseCondition("age=30..40")).toEqual(Result.succeed(["age", { min: 30, max: 40 }]))
    expect(parseCondition("age=30..")).toEqual(Result.succeed(["age", { min: 30 }]))
    expect(parseCondition("at=2024-01-01..2024-02-01")).toEqual(Result.succeed(["at", { min: "2024-01-01", max: "2024-02-01" }]))
    expect(parseCondition("score=1.5")).toEqual(Result.succeed(["score", 1.5]))
    expect(parseCondition('zip="75001"')).toEqual(Result.succeed(["zip", "75001"]))
  })

  it("refuses text without a column", () => {
    expect(Result.isFailure(parseCondition("Yes"))).toBe(true)
    expect(Result.isFailure(parseCondition("=Yes"))).toBe(true)
  })

  it("gathers the conditions into the request's object", () => {
    expect(conditionsOf([])).toBeNull()
    expect(conditionsOf([["a", 1], ["b", "x"]])).toEqual({ a: 1, b: "x" })
  })
})
