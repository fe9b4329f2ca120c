import { describe, expect, it } from "vitest"
import { topCategories } from "./topCategories.ts"

describe("topCategories", () => {
  it("selects the same top as a full sort when there are too many categories to sort", () => {
    const categories = Array.from({ length: 5000 }, (_, index) => `v${(index * 7919) % 5000}`)
    const counts = Float64Array.from(categories, (_, index) => (index % 97 === 0 ? 3 : index % 13 === 0 ? 2 : 1))
    const fullSort = categories
      .map((_, code) => code)
      .sort((a, b) => counts[b]! - counts[a]! || (categories[a]! < categories[b]! ? -1 : 1))
      .slice(0, 10)
    expect(topCategories(counts, categories, 10)).toEqual(fullSort)
  })

  it("breaks ties among a million single-count values by value", () => {
    const categories = Array.from({ length: 1_000_000 }, (_, index) => String(1_000_000 - index))
    const counts = new Float64Array(categories.length).fill(1)
    expect(topCategories(counts, categories, 3).map((code) => categories[code])).toEqual(["1", "10", "100"])
  })
})
