import { type CategoricalColumn, makeRandom } from "@synth/synth"
import { describe, expect, it } from "vitest"
import { protectRareCategories } from "./rareCategories.ts"

const cities = (labels: ReadonlyArray<string | null>): CategoricalColumn => {
  const categories = [...new Set(labels.filter((label): label is string => label !== null))]
  return {
    kind: "categorical",
    name: "city",
    type: "string",
    categories,
    codes: Int32Array.from(labels, (label) => (label === null ? -1 : categories.indexOf(label)))
  }
}

const labelsOf = (column: CategoricalColumn) => Array.from(column.codes, (code) => (code < 0 ? null : column.categories[code]!))

describe("protectRareCategories", () => {
  const column = cities([
    ...Array<string>(60).fill("Berlin"),
    ...Array<string>(40).fill("Paris"),
    "Smalltown",
    "Smalltown",
    null,
    "Hamlet"
  ])

  it("gives rows of a category held by fewer than k rows a frequent category, and drops its label", () => {
    const { column: protectedColumn, replacedRows } = protectRareCategories(column, 5, makeRandom(1))
    expect(replacedRows).toBe(3)
    expect(protectedColumn.categories).toEqual(["Berlin", "Paris"])
    const labels = labelsOf(protectedColumn)
    expect(labels.slice(0, 100)).toEqual(labelsOf(column).slice(0, 100))
    expect(labels[102]).toBeNull()
    for (const row of [100, 101, 103]) expect(["Berlin", "Paris"]).toContain(labels[row])
  })

  it("draws the replacements in proportion to the frequent categories' counts", () => {
    const many = cities([...Array<string>(300).fill("A"), ...Array<string>(100).fill("B"), ...Array.from({ length: 4_000 }, (_, i) => `rare-${i}`)])
    const labels = labelsOf(protectRareCategories(many, 5, makeRandom(2)).column)
    const a = labels.filter((label) => label === "A").length
    expect(a / labels.length).toBeGreaterThan(0.72)
    expect(a / labels.length).toBeLessThan(0.78)
  })

  it("leaves a column without rare categories as it is", () => {
    const common = cities([...Array<string>(5).fill("A"), ...Array<string>(7).fill("B")])
    expect(protectRareCategories(common, 5, makeRandom(3))).toEqual({ column: common, replacedRows: 0 })
  })

  it("makes the rows missing when no category is frequent", () => {
    const unique = cities(["a", "b", "c"])
    const { column: emptied, replacedRows } = protectRareCategories(unique, 5, makeRandom(4))
    expect(replacedRows).toBe(3)
    expect(emptied.categories).toEqual([])
    expect(labelsOf(emptied)).toEqual([null, null, null])
  })

  it("keeps a boolean column's labels and recodes its rare value", () => {
    const flags: CategoricalColumn = {
      kind: "categorical",
      name: "vip",
      type: "boolean",
      categories: ["false", "true"],
      codes: Int32Array.from([...Array<number>(20).fill(0), 1, 1])
    }
    const { column: protectedFlags, replacedRows } = protectRareCategories(flags, 5, makeRandom(5))
    expect(protectedFlags.categories).toEqual(["false", "true"])
    expect(Array.from(protectedFlags.codes).every((code) => code === 0)).toBe(true)
    expect(replacedRows).toBe(2)
  })
})
