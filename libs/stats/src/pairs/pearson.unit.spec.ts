import { describe, expect, it } from "vitest"
import { centredColumn } from "../numeric/centredColumn.ts"
import { pearsonPairs } from "./pearson.ts"

/** r by its definition, over the rows where both values are present. */
const directPearson = (xs: Float64Array, ys: Float64Array): number => {
  const rows = [...xs.keys()].filter((row) => !Number.isNaN(xs[row]!) && !Number.isNaN(ys[row]!))
  const mean = (values: Float64Array) => rows.reduce((sum, row) => sum + values[row]!, 0) / rows.length
  const [xMean, yMean] = [mean(xs), mean(ys)]
  const sum = (term: (row: number) => number) => rows.reduce((total, row) => total + term(row), 0)
  return sum((row) => (xs[row]! - xMean) * (ys[row]! - yMean)) /
    Math.sqrt(sum((row) => (xs[row]! - xMean) ** 2) * sum((row) => (ys[row]! - yMean) ** 2))
}

describe("pearsonPairs", () => {
  it("agrees with the definition across tiles, whatever the columns miss", () => {
    const rows = 10_000
    const wave = (index: number, row: number) => Math.sin(row * (index + 1) * 0.37) + 0.3 * Math.cos(row * 1.9 + index)
    const columns = [
      Float64Array.from({ length: rows }, (_, row) => wave(0, row)),
      Float64Array.from({ length: rows }, (_, row) => (row % 7 === 0 ? NaN : wave(1, row) + 0.5 * wave(0, row))),
      // A run of missing values across a tile boundary (4096), and rows both of the next two miss.
      Float64Array.from({ length: rows }, (_, row) => (row >= 4000 && row < 4200 ? NaN : wave(2, row))),
      Float64Array.from({ length: rows }, (_, row) => (row % 7 === 0 || row % 11 === 0 ? NaN : wave(3, row))),
      Float64Array.from({ length: rows }, (_, row) => wave(4, row) - wave(2, row)),
      Float64Array.from({ length: rows }, (_, row) => (row % 3 === 0 ? NaN : wave(5, row)))
    ]
    const result = pearsonPairs(columns.map(centredColumn), rows)
    let pair = 0
    for (let i = 0; i < columns.length; i++) {
      for (let j = i + 1; j < columns.length; j++) {
        expect(result[pair++]).toBeCloseTo(directPearson(columns[i]!, columns[j]!), 12)
      }
    }
  })
})
