import type { Association } from "../Profile.ts"
import type { CategoricalColumn, ProfileColumn, ProfileInput } from "../ProfileInput.ts"
import { isCategoricalColumn, isNumericColumn } from "../ProfileInput.ts"
import type { EtaCategorical } from "./correlationRatio.ts"
import { categorySumsOf, correlationRatio, prepareCategorical, prepareNumeric } from "./correlationRatio.ts"
import { cramersV } from "./cramersV.ts"
import { columnStats, pearson, withShifted } from "./pearson.ts"

// Pair keys follow the spec's `<column_a>-<column_b>`, a before b in column order. Date and datetime columns take
// part in neither correlations nor associations.
const pairKey = (a: { readonly name: string }, b: { readonly name: string }) => `${a.name}-${b.name}`

export const correlations = (input: ProfileInput): Record<string, number | null> => {
  const numeric = input.columns.filter(isNumericColumn)
  const stats = withShifted(numeric.map((column) => column.values), numeric.map((column) => columnStats(column.values)))
  const result: Record<string, number | null> = {}
  for (let i = 0; i < numeric.length; i++) {
    for (let j = i + 1; j < numeric.length; j++) {
      result[pairKey(numeric[i]!, numeric[j]!)] = pearson(numeric[i]!, numeric[j]!, stats[i]!, stats[j]!)
    }
  }
  return result
}

/**
 * Cramér's V for categorical pairs and η for numeric–categorical pairs. A categorical column with more categories
 * than `maxCategories` is skipped (its pairs are absent), since its tables would grow with its cardinality.
 */
export const associations = (input: ProfileInput, maxCategories: number): Record<string, Association> => {
  const columns = input.columns
  const eligible = (column: ProfileColumn): column is CategoricalColumn =>
    isCategoricalColumn(column) && column.categories.length <= maxCategories
  const categorical = new Map<number, EtaCategorical>()
  columns.forEach((column, index) => {
    if (eligible(column)) categorical.set(index, prepareCategorical(column.codes, column.categories.length))
  })
  const preparedIndices = [...categorical.keys()]
  const preparedList = [...categorical.values()]
  // Numeric column by numeric column, so one column's deviations (8 bytes a row) are alive at a time.
  const etas = new Map<string, number | null>()
  columns.forEach((column, numericIndex) => {
    if (!isNumericColumn(column) || categorical.size === 0) return
    const numeric = prepareNumeric(column.values)
    const sums = categorySumsOf(numeric, preparedList)
    preparedIndices.forEach((categoricalIndex, position) => {
      const pair = pairKey(columns[numericIndex]!, columns[categoricalIndex]!)
      etas.set(pair, correlationRatio(numeric, preparedList[position]!, column.values, sums[position]!))
    })
  })
  const result: Record<string, Association> = {}
  for (let i = 0; i < columns.length; i++) {
    for (let j = i + 1; j < columns.length; j++) {
      const a = columns[i]!
      const b = columns[j]!
      if (eligible(a) && eligible(b)) {
        result[pairKey(a, b)] = { method: "cramers_v", value: cramersV(a.codes, a.categories.length, b.codes, b.categories.length) }
      } else if (isNumericColumn(a) && eligible(b)) {
        result[pairKey(a, b)] = { method: "correlation_ratio", value: etas.get(pairKey(a, b))! }
      } else if (eligible(a) && isNumericColumn(b)) {
        result[pairKey(a, b)] = { method: "correlation_ratio", value: etas.get(pairKey(b, a))! }
      }
    }
  }
  return result
}
