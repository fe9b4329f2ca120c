import { fitGaussianCopula, makeRandom, type SynthTable } from "@synth/synth"
import { describe, expect, it } from "vitest"
import { keyedBloomFilter } from "../keyedBloom.ts"
import type { ScanSummary } from "../roles/resolveColumnRoles.ts"
import { columnFromText, columnText } from "../table/columnText.ts"
import { decodeProtectedArtifact, filtersFromJSON, filtersToJSON, protectedArtifact } from "./artifact.ts"
import type { Fakers } from "./Fakers.ts"
import { prepareTraining } from "./prepareTraining.ts"
import { defaultProtectionSettings } from "./ProtectionPlan.ts"
import { sampleProtected } from "./sampleProtected.ts"

/** Stand-in fakers (the real ones have their own tests): `fake-<column>-<n>`, checked against the real values. */
const testFakers: Fakers = {
  plan: (input) => {
    const realValues = keyedBloomFilter(input.values.length, 1e-3, "test")
    for (const value of input.values) if (value !== null) realValues.add(value)
    return { plan: { column: input.name }, realValues }
  },
  fake: (plan, rows, seed, realValues) => {
    let next = 0
    return Array.from({ length: rows }, () => {
      let value: string
      do value = `fake-${(plan as { column: string }).column}-${seed % 1000}-${next++}`
      while (realValues.mightContain(value))
      return value
    })
  }
}

const rows = 400
const random = makeRandom(11)
const customers: SynthTable = {
  rowCount: rows,
  columns: [
    columnFromText("full_name", "string", Array.from({ length: rows }, (_, row) => `Person ${row}`)),
    columnFromText("email", "string", Array.from({ length: rows }, (_, row) => `person${row}@example.com`)),
    columnFromText("age", "integer", Array.from({ length: rows }, () => String(20 + random.integer(50)))),
    columnFromText("income", "float", Array.from({ length: rows }, (_, row) =>
      row === 7 ? "9876543.21" : (20_000 + random.integer(500_000) + random.integer(100) / 100).toFixed(2))),
    columnFromText("city", "string", Array.from({ length: rows }, (_, row) => (row === 3 ? "Smalltown" : ["Berlin", "Paris", "Rome"][row % 3]!))),
    columnFromText("member", "boolean", Array.from({ length: rows }, (_, row) => (row % 4 === 0 ? "true" : "false")))
  ]
}

const scan: ScanSummary = {
  findings: [{ column: "full_name", type: "person_name" }, { column: "email", type: "email_address" }],
  identifiers: ["full_name", "email"],
  quasi_identifiers: [{ columns: ["age", "city"] }]
}

const train = (table: SynthTable, seed = 5) =>
  prepareTraining({ table, scan, overrides: {}, settings: defaultProtectionSettings, seed, differentiallyPrivate: false }, testFakers)

describe("a protected generation", () => {
  const prepared = train(customers)
  const model = { format: "synth.gaussian-copula", formatVersion: 1, ...fitGaussianCopula(prepared.learned, { seed: 5 }) }
  const output = sampleProtected(prepared.plan, model, prepared.filters, testFakers, 2_000, 9)
  const column = (name: string) => columnText(output.table.columns.find((candidate) => candidate.name === name)!)
  const real = (name: string) => columnText(customers.columns.find((candidate) => candidate.name === name)!)

  it("holds out a tenth of the rows and learns only the columns it does not fake", () => {
    expect(prepared.holdoutRows).toBe(40)
    expect(prepared.trainingRows).toBe(360)
    expect(prepared.learned.columns.map((learned) => learned.name)).toEqual(["age", "income", "city", "member"])
    expect(prepared.plan.columns.map(({ handling, name, role }) => `${name}:${role}:${handling}`)).toEqual([
      "full_name:direct_identifier:fake",
      "email:direct_identifier:fake",
      "age:quasi_identifier:keep",
      "income:data:keep",
      "city:quasi_identifier:keep",
      "member:data:keep"
    ])
  })

  it("writes every column in the source's order, with fresh values for the faked ones", () => {
    expect(output.table.rowCount).toBe(2_000)
    expect(output.table.columns.map((written) => written.name)).toEqual(customers.columns.map((source) => source.name))
    const realEmails = new Set(real("email"))
    expect(column("email").some((value) => realEmails.has(value))).toBe(false)
  })

  it("publishes no real extreme and no category of fewer than k rows", () => {
    const incomes = column("income").map(Number)
    expect(Math.max(...incomes)).toBeLessThan(600_000)
    expect(incomes).not.toContain(9_876_543.21)
    expect(column("city")).not.toContain("Smalltown")
    expect(JSON.stringify(prepared.plan)).not.toContain("Smalltown")
    expect(prepared.counts.rareCategoryRows).toBeLessThanOrEqual(1)
    expect(prepared.counts.redrawnValues).toBeGreaterThan(0)
  })

  it("publishes no row equal to a real row on the learned columns", () => {
    const keys = (values: (name: string) => Array<string | null>) => {
      const [age, income, city, member] = ["age", "income", "city", "member"].map(values)
      return age!.map((value, row) => [value, income![row], city![row], member![row]].join("|"))
    }
    const realKeys = new Set(keys(real))
    expect(keys(column).filter((key) => realKeys.has(key))).toEqual([])
  })

  it("samples the same rows again from the stored artifact and filters, for the same seed", () => {
    const stored = JSON.parse(JSON.stringify(protectedArtifact(prepared.plan, null)))
    const plan = decodeProtectedArtifact(stored)
    const filters = filtersFromJSON(JSON.parse(JSON.stringify(filtersToJSON(prepared.filters))))
    if (plan._tag === "Failure" || filters._tag === "Failure") throw new Error("the stored plan or filters did not decode")
    const again = sampleProtected(plan.success.plan, model, filters.success, testFakers, 2_000, 9)
    expect(again.table.columns.map(columnText)).toEqual(output.table.columns.map(columnText))
  })

  it("redraws rows a copying model would publish, and counts them", () => {
    const copying = { format: "test", formatVersion: 1, sample: (count: number) => sliceRows(prepared.learned, count), toJSON: () => null }
    const copied = sampleProtected(prepared.plan, copying, prepared.filters, testFakers, 50, 1)
    // It copies training rows, which are real rows except the few whose values the protections moved; its redraws
    // hold other rows, some of them moved ones, which replace copies.
    expect(copied.filteredRows + copied.copiesKept).toBeGreaterThanOrEqual(45)
    expect(copied.filteredRows).toBeGreaterThan(0)
  })

  it("lets a request drop, keep and hash columns", () => {
    const custom = prepareTraining({
      table: customers,
      scan,
      overrides: { email: "hash", full_name: "drop", city: "keep" },
      settings: { ...defaultProtectionSettings, valueProtection: false },
      seed: 5,
      differentiallyPrivate: false
    }, testFakers)
    expect(custom.learned.columns.map((learned) => learned.name)).toEqual(["email", "age", "income", "city", "member"])
    expect(columnText(custom.learned.columns[0]!).every((value) => /^h[0-9a-f]{16}$/.test(value!))).toBe(true)
    expect(custom.plan.bounds).toEqual([])
    expect(custom.plan.hashKey).not.toBeNull()
  })
})

const sliceRows = (table: SynthTable, count: number): SynthTable => ({
  rowCount: count,
  columns: table.columns.map((column) =>
    column.kind === "categorical"
      ? { ...column, codes: column.codes.slice(0, count) }
      : { ...column, values: column.values.slice(0, count), missing: column.missing?.slice(0, count) ?? null }
  )
})
