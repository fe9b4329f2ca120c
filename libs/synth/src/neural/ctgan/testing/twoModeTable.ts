/**
 * Test data with known structure: `value` has two modes, near −5 for group "a" (60% of rows) and near +5 for group
 * "b", beside an independent categorical `color` and an independent numeric `other`. A model that learns the data
 * must reproduce both modes, their shares, and which group each belongs to.
 */
import { makeRandom } from "../../../random.ts"
import type { CategoricalColumn, ContinuousColumn, SynthTable } from "../../../table.ts"

export const twoModeTable = (rows: number, seed: number): SynthTable => {
  const random = makeRandom(seed)
  const group = new Int32Array(rows)
  const color = new Int32Array(rows)
  const value = new Float64Array(rows)
  const other = new Float64Array(rows)
  for (let i = 0; i < rows; i++) {
    group[i] = random.next() < 0.6 ? 0 : 1
    color[i] = random.integer(3)
    value[i] = (group[i] === 0 ? -5 : 5) + 0.8 * random.normal()
    other[i] = 10 + 2 * random.normal()
  }
  const numeric = (name: string, values: Float64Array): ContinuousColumn =>
    ({ kind: "continuous", name, type: "float", values, missing: null, sourceFormat: null })
  const categorical = (name: string, categories: ReadonlyArray<string>, codes: Int32Array): CategoricalColumn =>
    ({ kind: "categorical", name, type: "string", categories, codes })
  return {
    rowCount: rows,
    columns: [categorical("group", ["a", "b"], group), numeric("value", value), categorical("color", ["red", "green", "blue"], color), numeric("other", other)]
  }
}

/** How a (synthetic) table relates group and value: the share of "a" rows, and of each group's rows in its own mode. */
export const groupModeShares = (table: SynthTable) => {
  const group = table.columns.find((column) => column.name === "group") as CategoricalColumn
  const value = table.columns.find((column) => column.name === "value") as ContinuousColumn
  const a = group.categories.indexOf("a")
  let groupA = 0
  let negativeA = 0
  let positiveB = 0
  for (let i = 0; i < table.rowCount; i++) {
    if (group.codes[i] === a) {
      groupA++
      if (value.values[i]! < 0) negativeA++
    } else if (value.values[i]! > 0) positiveB++
  }
  return { shareA: groupA / table.rowCount, negativeWithinA: negativeA / groupA, positiveWithinB: positiveB / (table.rowCount - groupA) }
}
