/** Test data for the TVAE's category coverage: many balanced categories and a rare one, beside a number. */
import { makeRandom } from "../../../random.ts"
import type { CategoricalColumn, ContinuousColumn, SynthTable } from "../../../table.ts"

/** Categories of `length`, equally frequent (like an employment length in years). */
export const LENGTHS = Array.from({ length: 12 }, (_, years) => `${years} years`)

/**
 * `rows` rows: `length` uniform over LENGTHS; `senior` "yes" in 16 % of rows, independent of it; `amount` a number
 * that rises with the length, so that the table is not all categories.
 */
export const categoryTable = (rows: number, seed: number): SynthTable => {
  const random = makeRandom(seed)
  const length = new Int32Array(rows)
  const senior = new Int32Array(rows)
  const amount = new Float64Array(rows)
  for (let i = 0; i < rows; i++) {
    length[i] = random.integer(LENGTHS.length)
    senior[i] = random.next() < 0.16 ? 1 : 0
    amount[i] = 100 + 20 * length[i]! + 10 * random.normal()
  }
  const categorical = (name: string, categories: ReadonlyArray<string>, codes: Int32Array): CategoricalColumn => ({
    kind: "categorical",
    name,
    type: "string",
    categories,
    codes
  })
  const continuous: ContinuousColumn = { kind: "continuous", name: "amount", type: "float", values: amount, missing: null, sourceFormat: null }
  return { rowCount: rows, columns: [categorical("length", LENGTHS, length), categorical("senior", ["no", "yes"], senior), continuous] }
}
