import type { SynthColumn, SynthTable } from "@synth/synth"
import { describe, expect, it } from "vitest"
import type { GeneratorColumn } from "../columns/evaluatedColumns.ts"
import { exceedsChance } from "./chanceExcess.ts"
import { valueDisclosure } from "./valueDisclosure.ts"

const labels = (name: string, values: ReadonlyArray<string | null>): SynthColumn => {
  const categories = [...new Set(values.filter((value): value is string => value !== null))]
  return { kind: "categorical", name, type: "string", categories, codes: Int32Array.from(values, (value) => (value === null ? -1 : categories.indexOf(value))) }
}
const days = (name: string, values: ReadonlyArray<number>): SynthColumn =>
  ({ kind: "continuous", name, type: "date", values: Float64Array.from(values), missing: null, sourceFormat: null })
const table = (...columns: ReadonlyArray<SynthColumn>): SynthTable => ({ rowCount: columns[0]!.kind === "categorical" ? columns[0]!.codes.length : columns[0]!.values.length, columns })

const columns: ReadonlyArray<GeneratorColumn> = [
  { name: "name", role: "direct_identifier", handling: "drop", piiType: "person_name" },
  { name: "email", role: "direct_identifier", handling: "keep", piiType: "email_address" },
  { name: "city", role: "quasi_identifier", handling: "keep", piiType: null },
  { name: "born", role: "quasi_identifier", handling: "keep", piiType: "date_of_birth" },
  { name: "plan", role: "data", handling: "keep", piiType: null }
]

const members = table(
  labels("name", ["A", "B", "C", "D", "E", "F"]),
  labels("email", ["a@x.org", "b@x.org", "c@x.org", "d@x.org", "e@x.org", "f@x.org"]),
  labels("city", ["Big", "Big", "Big", "Big", "Big", "Tiny"]),
  days("born", [1, 2, 3, 4, 5, 6]),
  labels("plan", ["p", "p", "p", "p", "p", "p"])
)
const nonMembers = table(labels("name", ["G", "H"]), labels("email", ["g@x.org", "h@x.org"]), labels("city", ["Big", "Big"]), days("born", [3, 100]), labels("plan", ["p", "p"]))
const synthetic = table(
  labels("email", [" A@X.org", "z@x.org", null, "g@x.org"]),
  labels("city", ["Big", "Tiny", "Other", "Big"]),
  days("born", [3, 3, 50, 200]),
  labels("plan", ["p", "p", "p", "p"])
)

describe("valueDisclosure on a hand-computed table (k = 5)", () => {
  const found = valueDisclosure({ synthetic, members, nonMembers, otherReal: [], columns, rareThreshold: 5 })
  const byName = new Map(found.map((column) => [column.name, column]))

  it("measures the personal columns only, and passes a column the output does not have", () => {
    expect(found.map(({ name }) => name)).toEqual(["name", "email", "city", "born"])
    expect(byName.get("name")).toMatchObject({ inOutput: false, values: 0, realShare: null, passed: true })
  })

  it("counts a direct identifier's real values, trimmed and case-folded, held-out rows' values too", () => {
    // " A@X.org" is a member's, "g@x.org" a non-member's, "z@x.org" nobody's; the missing value does not count.
    expect(byName.get("email")).toMatchObject({ rule: "no_real_values", values: 3, realValues: 2, rareValues: 1, passed: false })
    expect(byName.get("email")!.realShare).toBeCloseTo(2 / 3, 15)
  })

  it("fails a categorical quasi-identifier on a value fewer than k training rows hold, not on a common one", () => {
    // Big: 5 training rows (not rare at k = 5); Tiny: 1 (rare); Other: none (not real).
    expect(byName.get("city")).toMatchObject({ rule: "no_rare_values", values: 4, realValues: 3, rareValues: 1, rareShare: 0.25, passed: false })
    const common = valueDisclosure({ synthetic: table(labels("city", ["Big", "Other"])), members, nonMembers, otherReal: [], columns, rareThreshold: 5 })
    expect(common.find(({ name }) => name === "city")).toMatchObject({ rareValues: 0, passed: true })
  })

  it("compares a date quasi-identifier's rare hits with the held-out rows' own rate", () => {
    // Every training birth day is rare. Output: 3, 3 hit one (2 of 4); held out: 3 hits, 100 does not (1 of 2).
    expect(byName.get("born")).toMatchObject({ rule: "rare_values_at_chance", values: 4, rareValues: 2, rareShare: 0.5, chanceRareShare: 0.5, passed: true })
    const withoutHoldout = valueDisclosure({ synthetic, members, nonMembers: null, otherReal: [], columns, rareThreshold: 5 })
    expect(withoutHoldout.find(({ name }) => name === "born")).toMatchObject({ chanceRareShare: null, passed: false })
  })

  it("counts the other real rows' values as real", () => {
    const other = table(labels("email", ["z@x.org"]))
    const found = valueDisclosure({ synthetic, members, nonMembers, otherReal: [other], columns, rareThreshold: 5 })
    expect(found.find(({ name }) => name === "email")).toMatchObject({ realValues: 3 })
  })
})

describe("exceedsChance (one-sided two-proportion z-test at 1 %)", () => {
  it("tells an excess from sampling noise", () => {
    expect(exceedsChance(0, 100, 0, 10)).toBe(false)
    expect(exceedsChance(30, 100, 1, 40)).toBe(true) // 30 % vs 2.5 %: z = 3.5
    expect(exceedsChance(3, 100, 1, 40)).toBe(false) // 3 % vs 2.5 %
    expect(exceedsChance(10, 100, 20, 100)).toBe(false) // below the baseline
  })

  it("counts any hit without a baseline", () => {
    expect(exceedsChance(1, 1000, null, null)).toBe(true)
    expect(exceedsChance(1, 1000, 0, 0)).toBe(true)
  })
})
