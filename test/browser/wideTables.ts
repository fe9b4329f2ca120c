// A 31-column table and a poor synthetic copy of it, as a short CTGAN run leaves one: every column's distribution is
// off and the related columns lose their relationship. The browser test renders its report to see how 31 findings of
// one kind read. Seeded: the same tables every run.
import { makeRandom, type Random } from "@synth/synth"

export const wideColumnNames = Array.from({ length: 31 }, (_, index) => `col${String(index + 1).padStart(2, "0")}`)

const numericColumns = 24
/** col01 … col06 follow one latent factor (pairwise r ≈ 0.64), so the quality score counts their 15 pairs. */
const relatedColumns = 6
const categories = ["A", "B", "C", "D"] as const

const pick = (random: Random, weights: ReadonlyArray<number>): string => {
  let draw = random.next()
  for (const [index, weight] of weights.entries()) {
    draw -= weight
    if (draw < 0) return categories[index]!
  }
  return categories[categories.length - 1]!
}

const realRow = (random: Random): ReadonlyArray<string> => {
  const latent = random.normal()
  const numbers = Array.from({ length: numericColumns }, (_, index) =>
    (index < relatedColumns ? 0.8 * latent + 0.6 * random.normal() : random.normal()).toFixed(4))
  const labels = Array.from({ length: wideColumnNames.length - numericColumns }, () => pick(random, [0.4, 0.3, 0.2, 0.1]))
  return [...numbers, ...labels]
}

/** Shifted, wider, independent numbers and the category frequencies reversed. */
const poorSyntheticRow = (random: Random): ReadonlyArray<string> => {
  const numbers = Array.from({ length: numericColumns }, () => (1 + 1.6 * random.normal()).toFixed(4))
  const labels = Array.from({ length: wideColumnNames.length - numericColumns }, () => pick(random, [0.1, 0.2, 0.3, 0.4]))
  return [...numbers, ...labels]
}

const csv = (rows: number, row: (random: Random) => ReadonlyArray<string>, seed: number): string => {
  const random = makeRandom(seed)
  return [wideColumnNames.join(","), ...Array.from({ length: rows }, () => row(random).join(","))].join("\n") + "\n"
}

/** The training rows, the synthetic rows and real rows the generator never saw, as CSV files are uploaded. */
export const wideTables = () => ({
  training: csv(600, realRow, 1),
  synthetic: csv(600, poorSyntheticRow, 2),
  holdout: csv(200, realRow, 3)
})
