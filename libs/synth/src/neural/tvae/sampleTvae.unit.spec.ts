import { describe, expect, it } from "vitest"
import type { CategoricalColumn, SynthTable } from "../../table.ts"
import { fitTvae } from "./index.ts"
import { categoryTable, LENGTHS } from "./testing/categoryTable.ts"

/** Each category's share of the rows, in the column's category order. */
const shares = (table: SynthTable, name: string): ReadonlyArray<number> => {
  const column = table.columns.find((candidate) => candidate.name === name) as CategoricalColumn
  const counts = column.categories.map(() => 0)
  for (const code of column.codes) counts[code]! += 1
  return counts.map((count) => count / table.rowCount)
}

/** Total variation distance between two distributions over the same categories. */
const distance = (p: ReadonlyArray<number>, q: ReadonlyArray<number>) => p.reduce((sum, share, k) => sum + Math.abs(share - q[k]!), 0) / 2

describe("TVAE sampling of categories", () => {
  it("keeps every category of a balanced column and a rare category's share after a short training, where argmax collapses them", async () => {
    const real = categoryTable(2000, 1)
    // 5 epochs of 20 steps: the decoder is still unsure of most categories, which is where argmax picks the mode.
    const model = await fitTvae(real, { seed: 4, epochs: 5, batchSize: 100, compressDims: [64, 64], decompressDims: [64, 64], embeddingDim: 32 })
    const drawn = model.sample(4000, 5)
    const byArgmax = model.sampleByArgmax(4000, 5)
    const uniform = LENGTHS.map(() => 1 / LENGTHS.length)
    const seniorShare = shares(real, "senior")[1]!

    const drawnLengths = shares(drawn, "length")
    expect(drawnLengths.every((share) => share > 0.5 / LENGTHS.length)).toBe(true)
    expect(distance(drawnLengths, uniform)).toBeLessThan(0.1)
    expect(Math.abs(shares(drawn, "senior")[1]! - seniorShare)).toBeLessThan(0.05)

    // SDV's reading on the same decoder: the same checks fail (categories lost, the rare one gone).
    const argmaxLengths = shares(byArgmax, "length")
    expect(argmaxLengths.filter((share) => share > 0.5 / LENGTHS.length).length).toBeLessThan(LENGTHS.length)
    expect(distance(argmaxLengths, uniform)).toBeGreaterThan(0.2)
    expect(shares(byArgmax, "senior")[1]!).toBeLessThan(seniorShare / 3)
  }, 60_000)
})
