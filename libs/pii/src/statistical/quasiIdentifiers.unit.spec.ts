import { describe, expect, it } from "vitest"
import type { ColumnSample } from "../types.ts"
import { quasiIdentifiers } from "./quasiIdentifiers.ts"
import { columnStatistics, isIdentifier } from "./uniqueness.ts"

const column = (name: string, kind: ColumnSample["kind"], values: ReadonlyArray<string | null>): ColumnSample => ({ name, kind, values })

const analyse = (columns: ReadonlyArray<ColumnSample>) => {
  const statistics = new Map(columns.map((c) => [c.name, columnStatistics(c)]))
  const identifiers = new Set(columns.filter((c) => isIdentifier(c, statistics.get(c.name)!)).map((c) => c.name))
  return { identifiers, sets: quasiIdentifiers(columns, statistics, identifiers) }
}

describe("identifiers", () => {
  it("flags near-unique text and integer columns, not row numbers or measurements", () => {
    const rows = 50
    const { identifiers } = analyse([
      column("customer_code", "string", Array.from({ length: rows }, (_, i) => `C-${(i * 7919) % 100_000}`)),
      column("row", "integer", Array.from({ length: rows }, (_, i) => String(i + 1))),
      column("weight", "float", Array.from({ length: rows }, (_, i) => String(50 + i / 7))),
      column("plan", "string", Array.from({ length: rows }, (_, i) => ["a", "b"][i % 2]!))
    ])
    expect([...identifiers]).toEqual(["customer_code"])
  })
})

describe("quasiIdentifiers", () => {
  it("finds the minimal combination of demographic columns below k = 5, with its k and unique share", () => {
    // 20 rows. Alone every column has classes of 9 or more; together, gender and ZIP leave row 0 alone (k = 1),
    // while gender and age leave classes of 5 (k = 5: not reported).
    const gender = Array.from({ length: 20 }, (_, i) => (i < 10 ? "F" : "M"))
    const age = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? "20" : "30"))
    const zip = Array.from({ length: 20 }, (_, i) => (i === 0 || i >= 10 ? "94110" : "94100"))
    const { sets } = analyse([column("gender", "string", gender), column("age", "integer", age), column("zip", "string", zip)])
    expect(sets[0]).toEqual({ columns: ["gender", "zip"], k_anonymity: 1, unique_share: 0.05 })
    expect(sets.find((set) => set.columns.length === 2 && set.columns.includes("gender") && set.columns.includes("age"))).toBeUndefined()
    expect(sets.every((set) => set.columns.length > 1 && set.k_anonymity < 5)).toBe(true)
    // No reported set contains another reported set.
    for (const a of sets) for (const b of sets) if (a !== b) expect(a.columns.every((name) => b.columns.includes(name))).toBe(false)
  })

  it("reports nothing for a table without demographic columns (products, measurements)", () => {
    const cut = Array.from({ length: 100 }, (_, i) => ["Fair", "Good", "Ideal"][i % 3]!)
    const color = Array.from({ length: 100 }, (_, i) => "DEFGHIJ"[i % 7]!)
    expect(analyse([column("cut", "string", cut), column("color", "string", color)]).sets).toEqual([])
  })
})
