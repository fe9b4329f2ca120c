import { type CategoricalColumn, makeRandom } from "@synth/synth"
import { describe, expect, it } from "vitest"
import { protectRareCategories } from "./rareCategories.ts"
import { protectRareCombinations } from "./rareCombinations.ts"

const column = (name: string, labels: ReadonlyArray<string | null>): CategoricalColumn => {
  const categories = [...new Set(labels.filter((label): label is string => label !== null))]
  return { kind: "categorical", name, type: "string", categories, codes: Int32Array.from(labels, (label) => (label === null ? -1 : categories.indexOf(label))) }
}

const labels = (protectedColumn: CategoricalColumn) => Array.from(protectedColumn.codes, (code) => (code < 0 ? null : protectedColumn.categories[code]!))

/** 40 rows in Paris, 30 in Berlin, 3 in Milan (rare), 2 in Lyon (rare, its country frequent). */
const places: ReadonlyArray<readonly [string, string]> = [
  ...Array.from({ length: 40 }, () => ["Paris", "France"] as const),
  ...Array.from({ length: 30 }, () => ["Berlin", "Germany"] as const),
  ...Array.from({ length: 3 }, () => ["Milan", "Italy"] as const),
  ...Array.from({ length: 2 }, () => ["Lyon", "France"] as const)
]
const city = column("city", places.map(([name]) => name))
const country = column("country", places.map(([, name]) => name))
const pairs = (columns: ReadonlyArray<CategoricalColumn>) => {
  const [cities, countries] = columns.map(labels)
  return new Set(cities!.map((name, row) => `${name}/${countries![row]}`))
}

describe("protectRareCombinations", () => {
  it("replaces rare combinations by frequent ones as wholes, so no combination is invented", () => {
    const protectedPlaces = protectRareCombinations([city, country], 5, makeRandom(3))
    expect(protectedPlaces.replacedRows).toBe(5)
    expect([...pairs(protectedPlaces.columns)].sort()).toEqual(["Berlin/Germany", "Paris/France"])
    expect(protectedPlaces.columns.map((protectedColumn) => protectedColumn.categories)).toEqual([["Paris", "Berlin"], ["France", "Germany"]])
    // Each column protected alone keeps Milan's rows in Italy and gives them another city: pairs no row holds.
    const alone = [protectRareCategories(city, 5, makeRandom(3)).column, protectRareCategories(country, 5, makeRandom(4)).column]
    expect([...pairs(alone)].some((pair) => pair.endsWith("/Italy"))).toBe(false)
    expect([...pairs(alone)].some((pair) => !["Paris/France", "Berlin/Germany"].includes(pair))).toBe(true)
  })

  it("counts a missing value as part of the combination, and leaves columns without rare combinations as they are", () => {
    const withMissing = [column("a", ["x", "x", "x", null, null]), column("b", ["y", "y", "y", "y", "y"])]
    const outcome = protectRareCombinations(withMissing, 2, makeRandom(1))
    expect(outcome).toEqual({ columns: withMissing, replacedRows: 0 })
  })

  it("makes every row missing when no combination is frequent", () => {
    const outcome = protectRareCombinations([column("a", ["x", "y"]), column("b", ["p", "q"])], 5, makeRandom(1))
    expect(outcome.columns.map(labels)).toEqual([[null, null], [null, null]])
  })
})
