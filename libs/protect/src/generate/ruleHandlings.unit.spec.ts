import type { SynthTable } from "@synth/synth"
import { describe, expect, it } from "vitest"
import { columnFromText } from "../table/columnText.ts"
import { defaultProtectionSettings } from "./ProtectionPlan.ts"
import { checkProtectedConditions, checkRuleHandlings } from "./ruleHandlings.ts"

const columns = [
  { name: "id", role: "identifier" as const, handling: "fake" as const },
  { name: "code", role: "identifier" as const, handling: "keep" as const },
  { name: "email", role: "direct_identifier" as const, handling: "hash" as const },
  { name: "notes", role: "data" as const, handling: "drop" as const },
  { name: "city", role: "quasi_identifier" as const, handling: "keep" as const },
  { name: "age", role: "data" as const, handling: "keep" as const }
]

describe("checkRuleHandlings", () => {
  it("allows rules between learned columns, and unique on a faked one", () => {
    expect(checkRuleHandlings({
      constraints: [{ type: "unique", columns: ["id", "age"] }, { type: "positive", column: "age", strict: false }],
      conditions: [{ kind: "equals", column: "city", value: "Paris" }]
    }, columns)).toEqual([])
  })

  it("names each rule on a faked, hashed or dropped column, and a fixed combination with a kept identifier", () => {
    expect(checkRuleHandlings({
      constraints: [
        { type: "inequality", low: "id", high: "age", strict: false },
        { type: "fixed_combinations", columns: ["city", "email", "code"] },
        { type: "unique", columns: ["notes"] }
      ],
      conditions: [{ kind: "equals", column: "email", value: "a@b.c" }]
    }, columns)).toEqual([
      { field: "constraints[0].low", message: "id is faked: its fresh values follow no rule of the data; set columns.id.handling to keep, or leave the rule out" },
      { field: "constraints[1].columns[1]", message: "email is hashed: its pseudonyms keep no value to compare; set columns.email.handling to keep, or leave the rule out" },
      { field: "constraints[1].columns[2]", message: "code is an identifier kept as it is: a fixed combination is between categories many rows share" },
      { field: "constraints[2].columns[0]", message: "notes is dropped: it is not in the output; set columns.notes.handling to keep, or leave the rule out" },
      { field: "conditions.email", message: "email is hashed: its pseudonyms keep no value to compare; set columns.email.handling to keep, or leave the rule out" }
    ])
  })
})

describe("checkProtectedConditions", () => {
  const learned: SynthTable = {
    rowCount: 3,
    columns: [columnFromText("city", "string", ["Paris", "Rome", "Paris"]), columnFromText("age", "integer", ["30", "40", "50"])]
  }
  const plan = { settings: defaultProtectionSettings, bounds: [{ column: "age", low: 21, high: 79 }] }

  it("refuses a category the rare-category protection removed and a range beside what value protection publishes", () => {
    expect(checkProtectedConditions([
      { kind: "equals", column: "city", value: "Milan" },
      { kind: "between", column: "age", min: 80, max: null },
      { kind: "equals", column: "age", value: 18 }
    ], plan, learned).map((problem) => problem.field)).toEqual(["conditions.city", "conditions.age", "conditions.age"])
  })

  it("accepts conditions the output can meet", () => {
    expect(checkProtectedConditions([
      { kind: "equals", column: "city", value: "Rome" },
      { kind: "between", column: "age", min: 70, max: 90 }
    ], plan, learned)).toEqual([])
  })
})
