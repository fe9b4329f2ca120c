import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { classifyColumns } from "../ai/localClassifier.ts"
import { asIngested } from "../corpus/columnKinds.ts"
import type { ScanInput } from "../types.ts"
import { mergeAiVerdicts } from "./mergeAiVerdicts.ts"
import { scanColumns } from "./scanColumns.ts"

/**
 * The fixtures of test/fixtures/pii (written by its generate.ts): what the scan got wrong before issue 21, read as
 * ingestion would (whole numbers as integers, decimals as floats). They have no quoted fields.
 */
const fixture = (name: string): ScanInput => {
  const text = readFileSync(new URL(`../../../../test/fixtures/pii/${name}`, import.meta.url), "utf8")
  const [header, ...rows] = text.trim().split("\n").map((line) => line.split(","))
  return {
    rowCount: rows.length,
    columns: header!.map((name, index) => ({ name, ...asIngested(rows.map((row) => (row[index] === "" ? null : row[index]!))) }))
  }
}

const customers = fixture("customers.csv")
const catalog = fixture("catalog.csv")

const scans = (input: ScanInput) => {
  const basic = scanColumns(input)
  return { basic, enhanced: mergeAiVerdicts(basic, classifyColumns(input), input) }
}

const types = (scan: ReturnType<typeof scanColumns>) => Object.fromEntries(scan.findings.map((finding) => [finding.column, finding.type]))

describe("the customer fixture", () => {
  const { basic, enhanced } = scans(customers)

  it.each([["basic", basic], ["enhanced", enhanced]] as const)("%s scan: names without a telling column name, the city, the coordinates; nothing else", (_, scan) => {
    expect(types(scan)).toEqual({
      first: "person_name",
      last: "person_name",
      employee: "person_name",
      who: "person_name",
      email: "email_address",
      office: "city",
      latitude: "geo_coordinates",
      longitude: "geo_coordinates"
    })
  })

  it("treats the Unix times as neither ids nor identifiers, and the city as a quasi-identifier", () => {
    expect(customers.columns.find((column) => column.name === "signup_ts")!.kind).toBe("integer")
    for (const scan of [basic, enhanced]) {
      expect(scan.identifiers).not.toContain("signup_ts")
      expect(scan.identifiers).not.toContain("last_event_ms")
      expect(scan.identifiers).not.toContain("product")
      expect(scan.identifiers).toContain("customer_id")
      expect(scan.quasi_identifiers.some((set) => set.columns.includes("office"))).toBe(true)
    }
    expect(basic.findings.find((finding) => finding.column === "office")).toMatchObject({ category: "location", sensitivity: "low" })
  })

  it("shows no raw name or city in the result", () => {
    const text = JSON.stringify(enhanced)
    for (const column of ["first", "last", "employee", "who", "office"]) {
      for (const value of customers.columns.find((candidate) => candidate.name === column)!.values.slice(0, 50)) {
        if (value !== null && value.length > 4) expect(text).not.toContain(value)
      }
    }
  })
})

describe("the catalog fixture (products, makers, colours, categories, counts, Unix times)", () => {
  const { basic, enhanced } = scans(catalog)

  it.each([["basic", basic], ["enhanced", enhanced]] as const)("%s scan finds no personal data and only the SKU as a key", (_, scan) => {
    expect(scan.findings).toEqual([])
    expect(scan.identifiers).toEqual(["sku"])
    expect(scan.risk_level).toBe("low")
  })
})
