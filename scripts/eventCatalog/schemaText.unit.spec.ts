import { DatasetId } from "@synth/contracts"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { fieldRows, typeText } from "./schemaText.ts"

const text = (schema: Schema.Top) => typeText(schema.ast)

describe("typeText", () => {
  it("names keywords, literals and unions of literals", () => {
    expect(text(Schema.String)).toBe("string")
    expect(text(Schema.Boolean)).toBe("boolean")
    expect(text(Schema.Literals(["csv", "json"]))).toBe('"csv" | "json"')
    expect(text(Schema.NullOr(Schema.Number))).toBe("number | null")
  })

  it("reads constraints from the refinements' JSON Schema annotations", () => {
    expect(text(DatasetId)).toBe("string (UUID)")
    expect(text(Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0))))).toBe("integer ≥ 0")
    expect(text(Schema.Int.pipe(Schema.check(Schema.isGreaterThan(0))))).toBe("integer > 0")
    expect(text(Schema.Number.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 1 }))))).toBe("number in [0, 1]")
    expect(text(Schema.Number.pipe(Schema.check(Schema.isLessThan(5))))).toBe("number < 5")
    expect(text(Schema.String.pipe(Schema.check(Schema.isMinLength(16))))).toBe("string (length ≥ 16)")
    expect(text(Schema.String.pipe(Schema.check(Schema.isPattern(/^[a-z]+$/))))).toBe("string (pattern /^[a-z]+$/)")
  })

  it("names a custom filter by its title", () => {
    const even = Schema.Int.check(Schema.makeFilter((n: number) => n % 2 === 0, { title: "even" }))
    expect(text(even)).toBe("integer (even)")
  })

  it("shows a transformation as it travels: its encoded side", () => {
    expect(text(Schema.NumberFromString)).toBe("string")
  })

  it("writes arrays, records and structs out in place", () => {
    expect(text(Schema.Array(Schema.String))).toBe("string[]")
    expect(text(Schema.Array(Schema.Literals(["a", "b"])))).toBe('("a" | "b")[]')
    expect(text(Schema.Record(Schema.String, Schema.Number))).toBe("Record<string, number>")
    expect(text(Schema.Struct({ a: Schema.String, b: Schema.optional(Schema.Number) }))).toBe("{ a: string; b?: number }")
  })
})

describe("fieldRows", () => {
  it("lists a struct's fields with their descriptions, marking the optional ones", () => {
    const rows = fieldRows(
      Schema.Struct({
        id: DatasetId,
        jti: Schema.String.annotate({ description: "refresh token id" }),
        note: Schema.optional(Schema.String)
      }).ast
    )
    expect(rows).toEqual([
      { path: "id", type: "string (UUID)", description: undefined },
      { path: "jti", type: "string", description: "refresh token id" },
      { path: "note", type: "optional string", description: undefined }
    ])
  })

  it("gives nested structs' fields rows of their own, through arrays, null and optional", () => {
    const Column = Schema.Struct({ name: Schema.String })
    const rows = fieldRows(
      Schema.Struct({
        columns: Schema.Array(Column),
        ai: Schema.NullOr(Schema.Struct({ model: Schema.String })),
        privacy: Schema.optional(Schema.Struct({ epsilon: Schema.Number }))
      }).ast
    )
    expect(rows.map((row) => [row.path, row.type])).toEqual([
      ["columns", "object[]"],
      ["columns[].name", "string"],
      ["ai", "object | null"],
      ["ai.model", "string"],
      ["privacy", "optional object"],
      ["privacy.epsilon", "number"]
    ])
  })

  it("leaves out Effect's own descriptions, which only restate the type", () => {
    const [row] = fieldRows(Schema.Struct({ count: Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0))) }).ast)
    expect(row?.description).toBeUndefined()
  })

  it("refuses a schema that is not a struct", () => {
    expect(() => fieldRows(Schema.String.ast)).toThrow(/expected a struct/)
  })
})
