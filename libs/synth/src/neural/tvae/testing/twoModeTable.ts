/** Test data with known structure for the TVAE's learning tests. */
import { makeRandom } from "../../../random.ts"
import type { CategoricalColumn, ContinuousColumn, SynthTable } from "../../../table.ts"

/** Share of rows in group "a"; the rest are "b". */
export const GROUP_A_SHARE = 0.4

/**
 * `rows` rows: `group` is "a" (40 %) or "b"; `amount` is two-mode and its mode follows the group (a → around −5,
 * b → around +5, spread 0.7); `size` is a skewed positive number and `colour` a three-way category, both
 * independent of the rest.
 */
export const twoModeTable = (rows: number, seed: number): SynthTable => {
  const random = makeRandom(seed)
  const group = new Int32Array(rows)
  const amount = new Float64Array(rows)
  const size = new Float64Array(rows)
  const colour = new Int32Array(rows)
  for (let i = 0; i < rows; i++) {
    group[i] = random.next() < GROUP_A_SHARE ? 0 : 1
    amount[i] = (group[i] === 0 ? -5 : 5) + 0.7 * random.normal()
    size[i] = Math.exp(2 + 0.5 * random.normal())
    const u = random.next()
    colour[i] = u < 0.5 ? 0 : u < 0.8 ? 1 : 2
  }
  const categorical = (name: string, categories: ReadonlyArray<string>, codes: Int32Array): CategoricalColumn => ({
    kind: "categorical",
    name,
    type: "string",
    categories,
    codes
  })
  const continuous = (name: string, values: Float64Array): ContinuousColumn => ({
    kind: "continuous",
    name,
    type: "float",
    values,
    missing: null,
    sourceFormat: null
  })
  return {
    rowCount: rows,
    columns: [categorical("group", ["a", "b"], group), continuous("amount", amount), continuous("size", size), categorical("colour", ["red", "green", "blue"], colour)]
  }
}
