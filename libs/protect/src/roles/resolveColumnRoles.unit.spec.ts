import { describe, expect, it } from "vitest"
import { resolveColumnRoles, type ScanSummary } from "./resolveColumnRoles.ts"

const columns = [
  { name: "customer_id", type: "integer" },
  { name: "full_name", type: "string" },
  { name: "email", type: "string" },
  { name: "zip", type: "string" },
  { name: "birth", type: "date" },
  { name: "lat", type: "float" },
  { name: "age", type: "integer" },
  { name: "diagnosis", type: "string" },
  { name: "income", type: "float" }
] as const

const scan: ScanSummary = {
  findings: [
    { column: "full_name", type: "person_name" },
    { column: "email", type: "email_address" },
    { column: "zip", type: "us_zip_code" },
    { column: "birth", type: "date_of_birth" },
    { column: "lat", type: "geo_coordinates" },
    { column: "diagnosis", type: "icd10_code" }
  ],
  identifiers: ["customer_id", "email"],
  quasi_identifiers: [{ columns: ["zip", "age"] }]
}

const byName = (plans: ReturnType<typeof resolveColumnRoles>) => Object.fromEntries(plans.map((plan) => [plan.name, plan]))

describe("resolveColumnRoles", () => {
  it("gives each column the role its scan finding, identifier or quasi-identifier set says, and the role's default", () => {
    const plans = byName(resolveColumnRoles(columns, scan, {}))
    expect(Object.values(plans).map(({ handling, name, piiType, role }) => [name, role, handling, piiType])).toEqual([
      ["customer_id", "identifier", "fake", null],
      ["full_name", "direct_identifier", "fake", "person_name"],
      ["email", "direct_identifier", "fake", "email_address"],
      ["zip", "quasi_identifier", "keep", "us_zip_code"],
      ["birth", "quasi_identifier", "keep", "date_of_birth"],
      ["lat", "quasi_identifier", "keep", "geo_coordinates"],
      ["age", "quasi_identifier", "keep", null],
      ["diagnosis", "data", "keep", "icd10_code"],
      ["income", "data", "keep", null]
    ])
    expect(Object.values(plans).every((plan) => plan.handlingSource === "default")).toBe(true)
  })

  it("applies the request's overrides and says they are the request's", () => {
    const plans = byName(resolveColumnRoles(columns, scan, { email: "keep", income: "drop", zip: "fake" }))
    expect(plans["email"]).toMatchObject({ role: "direct_identifier", handling: "keep", handlingSource: "request" })
    expect(plans["income"]).toMatchObject({ role: "data", handling: "drop", handlingSource: "request" })
    expect(plans["zip"]).toMatchObject({ role: "quasi_identifier", handling: "fake", handlingSource: "request" })
    expect(plans["full_name"]).toMatchObject({ handling: "fake", handlingSource: "default" })
  })

  it("never takes an override from the prototype chain", () => {
    const plans = resolveColumnRoles([{ name: "toString", type: "string" }], { findings: [], identifiers: [], quasi_identifiers: [] }, {})
    expect(plans[0]).toMatchObject({ role: "data", handling: "keep", handlingSource: "default" })
  })

  it("learns every column of a table the scan found nothing in", () => {
    const plans = resolveColumnRoles(columns, { findings: [], identifiers: [], quasi_identifiers: [] }, {})
    expect(plans.every((plan) => plan.role === "data" && plan.handling === "keep")).toBe(true)
  })
})
