import { describe, expect, it } from "@effect/vitest"
import { piiTypes, type ScanInput } from "@synth/pii"
import { responseFormat, systemPrompt, userMessage, verdictsFromAnswer } from "./llmRequest.ts"

const input: ScanInput = {
  rowCount: 1_000,
  columns: [
    { name: "email", kind: "string", values: ["ada.lovelace@example.com", "alan.turing@example.org", null, "grace@navy.mil"] },
    { name: "ssn", kind: "string", values: ["123-45-6789", "219-09-9999", "078-05-1120", null] },
    { name: "plan", kind: "string", values: ["basic", "basic", "plus", "premium"] }
  ]
}

describe("userMessage", () => {
  it("describes every column by name, type, shares and value shapes, without a value", () => {
    const text = userMessage(input)
    const message = JSON.parse(text) as {
      row_count: number
      columns: ReadonlyArray<{ name: string; type: string; non_missing_share: number; value_shapes: ReadonlyArray<unknown> }>
    }
    expect(message.row_count).toBe(1_000)
    expect(message.columns.map((column) => [column.name, column.type])).toEqual([
      ["email", "string"],
      ["ssn", "string"],
      ["plan", "string"]
    ])
    expect(message.columns[0]!.non_missing_share).toBe(0.75)
    expect(message.columns[1]!.value_shapes.length).toBeGreaterThan(0)
    for (const column of input.columns) {
      for (const value of column.values) if (value !== null) expect(text).not.toContain(value)
    }
  })

  it("asks for a strict JSON schema answer with the known types and none", () => {
    const type = responseFormat.json_schema.schema.properties.columns.items.properties.type
    expect(type.enum).toContain("email_address")
    expect(type.enum).toContain("city")
    expect(type.enum).toContain("none")
    expect(responseFormat.json_schema.strict).toBe(true)
  })

  it("lists every type in the system message and says what cities, decimals and Unix times are", () => {
    for (const type of piiTypes) expect(systemPrompt).toContain(type)
    expect(systemPrompt).toMatch(/city is the town or city/)
    expect(systemPrompt).toMatch(/Unix\s+timestamps/)
  })
})

describe("verdictsFromAnswer", () => {
  it("keeps the input's columns once each, maps none to null and clamps confidences", () => {
    const answer = JSON.stringify({
      columns: [
        { column: "email", type: "email_address", confidence: 1.4 },
        { column: "email", type: "url", confidence: 0.2 },
        { column: "invented", type: "iban", confidence: 0.9 },
        { column: "plan", type: "none", confidence: -0.1 }
      ]
    })
    expect(verdictsFromAnswer(input, answer)).toEqual([
      { column: "email", type: "email_address", confidence: 1 },
      { column: "plan", type: null, confidence: 0 }
    ])
    const city = JSON.stringify({ columns: [{ column: "plan", type: "city", confidence: 0.7 }] })
    expect(verdictsFromAnswer(input, city)).toEqual([{ column: "plan", type: "city", confidence: 0.7 }])
  })

  it("refuses an answer that is not the schema's JSON", () => {
    expect(verdictsFromAnswer(input, "Sure! Here are the columns: email")).toBeUndefined()
    expect(verdictsFromAnswer(input, JSON.stringify({ columns: [{ column: "email", type: "martian", confidence: 1 }] }))).toBeUndefined()
    expect(verdictsFromAnswer(input, JSON.stringify({ rows: [] }))).toBeUndefined()
  })
})
