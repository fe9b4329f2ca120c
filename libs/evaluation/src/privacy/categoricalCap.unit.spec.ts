import type { SynthTable } from "@synth/synth"
import { fileURLToPath } from "node:url"
import { beforeAll, describe, expect, it } from "vitest"
import { expectClose, readFixture } from "../statistical/testing/fixtures.ts"
import { synthTableFromCsv } from "../statistical/testing/synthTableFromCsv.ts"
import { attributeInference } from "./attributeInference.ts"
import { capAttack } from "./categoricalCap.ts"
import { binIndices, equalWidthEdges } from "./equalWidthBins.ts"

interface Scores {
  readonly cap_protection: number
  readonly zero_cap_protection: number
  readonly baseline_protection: number
  readonly disclosure_protection: number
  readonly complete_rows?: { readonly cap_protection: number; readonly zero_cap_protection: number }
}
interface Case {
  readonly name: string
  readonly keys: ReadonlyArray<string>
  readonly sensitive: string
  readonly members: Scores
  readonly non_members: Scores
}
const reference = readFixture<{ readonly types: Record<string, string>; readonly cases: ReadonlyArray<Case> }>("cap.json")

const load = async (name: string) => {
  const table = await synthTableFromCsv(fileURLToPath(new URL(`../../reference/fixtures/${name}`, import.meta.url)))
  expect(Object.fromEntries(table.columns.map((column) => [column.name, column.type]))).toEqual(reference.types)
  return table
}

/** The rows with every named column present (SDMetrics' CategoricalCAP itself, without DisclosureProtection's null category). */
const complete = (table: SynthTable, names: ReadonlyArray<string>): SynthTable => {
  const columns = table.columns.filter(({ name }) => names.includes(name))
  const rows = Int32Array.from({ length: table.rowCount }, (_, i) => i).filter((row) =>
    columns.every((column) => (column.kind === "categorical" ? column.codes[row]! >= 0 : column.missing?.[row] !== 1))
  )
  return {
    rowCount: rows.length,
    columns: table.columns.map((column) =>
      column.kind === "categorical"
        ? { ...column, codes: Int32Array.from(rows, (row) => column.codes[row]!) }
        : { ...column, values: Float64Array.from(rows, (row) => column.values[row]!), missing: column.missing === null ? null : Uint8Array.from(rows, (row) => column.missing![row]!) }
    )
  }
}

describe("capAttack against SDMetrics 0.32 (reference/cap_reference.py, cap.json)", () => {
  let members: SynthTable, nonMembers: SynthTable, synthetic: SynthTable
  beforeAll(async () => {
    ;[members, nonMembers, synthetic] = await Promise.all(["cap_members.csv", "cap_non_members.csv", "cap_synthetic.csv"].map(load)) as [SynthTable, SynthTable, SynthTable]
  })

  for (const testCase of reference.cases) {
    it(`scores CategoricalCAP, CategoricalZeroCAP and DisclosureProtection: ${testCase.name}`, () => {
      for (const [attacked, expected] of [[members, testCase.members], [nonMembers, testCase.non_members]] as const) {
        const scores = capAttack({ attacked, synthetic, keys: testCase.keys, sensitive: testCase.sensitive })
        expectClose(scores.capProtection, expected.cap_protection, 1e-12)
        expectClose(scores.zeroCapProtection, expected.zero_cap_protection, 1e-12)
        expectClose(scores.baselineProtection, expected.baseline_protection, 1e-12)
        expectClose(scores.disclosureProtection, expected.disclosure_protection, 1e-12)
        if (expected.complete_rows !== undefined) {
          const names = [...testCase.keys, testCase.sensitive]
          const raw = capAttack({ attacked: complete(attacked, names), synthetic: complete(synthetic, names), keys: testCase.keys, sensitive: testCase.sensitive })
          expectClose(raw.capProtection, expected.complete_rows.cap_protection, 1e-12)
          expectClose(raw.zeroCapProtection, expected.complete_rows.zero_cap_protection, 1e-12)
        }
      }
    })
  }

  it("finds the copied members: the binned attack guesses their smoking clearly better than the non-members'", () => {
    const result = attributeInference(members, nonMembers, synthetic, ["zone", "age", "income", "born"], "smoker")
    expect(result.excess!.estimate).toBeGreaterThan(0.25)
    expect(result.excess!.low).toBeGreaterThan(0.1)
    expect(result.passed).toBe(false)
  })
})

describe("equal-width bins (pandas.cut with an integer bin count)", () => {
  it("lowers the first edge by 0.1 % of the range and closes bins on the right", () => {
    const edges = equalWidthEdges(Float64Array.of(0, 10, 5, NaN), 4)!
    expect(Array.from(edges)).toEqual([-0.01, 2.5, 5, 7.5, 10])
    expect(Array.from(binIndices(Float64Array.of(0, 2.5, 2.6, 10, NaN, 11, -3), edges, false))).toEqual([0, 0, 1, 3, -1, -1, -1])
    expect(Array.from(binIndices(Float64Array.of(11, -3), edges, true))).toEqual([3, 0])
  })

  it("widens a constant column by 0.1 % of its value on each side (0.001 around 0)", () => {
    expect(Array.from(equalWidthEdges(Float64Array.of(100, 100), 2)!)).toEqual([99.9, 100, 100.1])
    expect(Array.from(equalWidthEdges(Float64Array.of(0), 2)!)).toEqual([-0.001, 0, 0.001])
    expect(equalWidthEdges(Float64Array.of(NaN), 2)).toBeNull()
  })
})

const table = (columns: Record<string, ReadonlyArray<string | null>>): SynthTable => {
  const entries = Object.entries(columns)
  return {
    rowCount: entries[0]![1].length,
    columns: entries.map(([name, values]) => {
      const categories = [...new Set(values.filter((value): value is string => value !== null))]
      return { kind: "categorical", name, type: "string", categories, codes: Int32Array.from(values, (value) => (value === null ? -1 : categories.indexOf(value))) }
    })
  }
}

describe("attributeInference on hand-computed tables", () => {
  // Output: key a → sensitive x, x, y; key b → y; key c → z. Members (a,x) (a,y) (b,y); non-members (a,x) (c,y) (d,x).
  const synthetic = table({ key: ["a", "a", "a", "b", "c"], value: ["x", "x", "y", "y", "z"] })
  const members = table({ key: ["a", "a", "b"], value: ["x", "y", "y"] })
  const nonMembers = table({ key: ["a", "c", "d"], value: ["x", "y", "x"] })

  it("believes each value in proportion to the output rows with the same key; an unknown key scores 0 (ZeroCAP)", () => {
    const onMembers = capAttack({ attacked: members, synthetic, keys: ["key"], sensitive: "value" })
    expect(Array.from(onMembers.perRow)).toEqual([2 / 3, 1 / 3, 1])
    expect(onMembers.capProtection).toBeCloseTo(1 - 2 / 3, 15)
    expect(onMembers.baselineProtection).toBeCloseTo(0.5, 15)
    const onNonMembers = capAttack({ attacked: nonMembers, synthetic, keys: ["key"], sensitive: "value" })
    expect(Array.from(onNonMembers.perRow)).toEqual([2 / 3, 0, NaN])
    expect(onNonMembers.capProtection).toBeCloseTo(1 - 1 / 3, 15)
    expect(onNonMembers.zeroCapProtection).toBeCloseTo(1 - 2 / 9, 15)
  })

  it("measures the excess of members over non-members with Welch's interval", () => {
    const result = attributeInference(members, nonMembers, synthetic, ["key"], "value")
    // Member beliefs 2/3, 1/3, 1 (mean 2/3, variance 1/9); non-member beliefs 2/3, 0, 0 (mean 2/9, variance 4/27).
    const estimate = 2 / 3 - 2 / 9
    const margin = 1.959963984540054 * Math.sqrt(1 / 9 / 3 + 4 / 27 / 3)
    expect(result.excess!.estimate).toBeCloseTo(estimate, 12)
    expect(result.excess!.low).toBeCloseTo(estimate - margin, 12)
    expect(result.excess!.high).toBeCloseTo(estimate + margin, 12)
    expect(result.passed).toBe(false)
    expect(result.members).toMatchObject({ rows: 3, matchedRows: 3 })
    expect(result.nonMembers).toMatchObject({ rows: 3, matchedRows: 2 })
  })

  it("passes when members and non-members are guessed alike on enough rows, and cannot judge without non-members", () => {
    // Three rows a side leave an interval too wide to rule out an excess of 0.2; thirty do not.
    expect(attributeInference(members, members, synthetic, ["key"], "value")).toMatchObject({ excess: { estimate: 0 }, passed: false })
    const many = table({ key: Array.from({ length: 30 }, (_, i) => ["a", "a", "b"][i % 3]!), value: Array.from({ length: 30 }, (_, i) => ["x", "y", "y"][i % 3]!) })
    const same = attributeInference(many, many, synthetic, ["key"], "value")
    expect(same.excess!.estimate).toBe(0)
    expect(same.excess!.high).toBeLessThan(0.2)
    expect(same.passed).toBe(true)
    const alone = attributeInference(members, null, synthetic, ["key"], "value")
    expect(alone.nonMembers).toBeNull()
    expect(alone.passed).toBeNull()
  })
})
