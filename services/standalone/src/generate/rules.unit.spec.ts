import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { conditionsOf, parseCondition, parseConstraint } from "./rules.ts"

describe("parseConstraint", () => {
  it("takes JSON as the API takes it, unknown types included (the server names them)", () => {
    expect(parseConstraint('{"type":"unique","columns":["employee_id"]}')).toEqual(Either.right({ type: "unique", columns: ["employee_id"] }))
    expect(parseConstraint('{"type":"sideways"}')).toEqual(Either.right({ type: "sideways" }))
  })

  it("reads the short forms", () => {
    expect(parseConstraint("ordered_at<=shipped_at")).toEqual(Either.right({ type: "inequality", low: "ordered_at", high: "shipped_at", strict: false }))
    expect(parseConstraint("a < b")).toEqual(Either.right({ type: "inequality", low: "a", high: "b", strict: true }))
    expect(parseConstraint("discount=0..0.5")).toEqual(Either.right({ type: "range", column: "discount", min: 0, max: 0.5 }))
    expect(parseConstraint("born=..2000-01-01")).toEqual(Either.right({ type: "range", column: "born", min: null, max: "2000-01-01" }))
    expect(parseConstraint("positive:price")).toEqual(Either.right({ type: "positive", column: "price" }))
    expect(parseConstraint("unique:a, b")).toEqual(Either.right({ type: "unique", columns: ["a", "b"] }))
    expect(parseConstraint("fixed:city,country")).toEqual(Either.right({ type: "fixed_combinations", columns: ["city", "country"] }))
  })

  it("says what it takes when it cannot read one", () => {
    expect(Either.getLeft(parseConstraint("price"))).toEqual(expect.objectContaining({ value: expect.stringContaining("short form") }))
    expect(Either.isLeft(parseConstraint("{oops"))).toBe(true)
    expect(Either.isLeft(parseConstraint("[1]"))).toBe(true)
  })
})

describe("parseCondition", () => {
  it("reads values and ranges, numbers as numbers", () => {
    expect(parseCondition("churned=Yes")).toEqual(Either.right(["churned", "Yes"]))
    expect(parseCondition("age=30..40")).toEqual(Either.right(["age", { min: 30, max: 40 }]))
    expect(parseCondition("age=30..")).toEqual(Either.right(["age", { min: 30 }]))
    expect(parseCondition("at=2024-01-01..2024-02-01")).toEqual(Either.right(["at", { min: "2024-01-01", max: "2024-02-01" }]))
    expect(parseCondition("score=1.5")).toEqual(Either.right(["score", 1.5]))
    expect(parseCondition('zip="75001"')).toEqual(Either.right(["zip", "75001"]))
  })

  it("refuses text without a column", () => {
    expect(Either.isLeft(parseCondition("Yes"))).toBe(true)
    expect(Either.isLeft(parseCondition("=Yes"))).toBe(true)
  })

  it("gathers the conditions into the request's object", () => {
    expect(conditionsOf([])).toBeNull()
    expect(conditionsOf([["a", 1], ["b", "x"]])).toEqual({ a: 1, b: "x" })
  })
})
