import type { Association } from "../Profile.ts"
import type { CategoricalColumn, ProfileInput } from "../ProfileInput.ts"
import { isCategoricalColumn, isNumericColumn } from "../ProfileInput.ts"
import { completeCategoryCounts, completeSpread, correlationRatio } from "./correlationRatio.ts"
import { cramersV } from "./cramersV.ts"
import { columnStats, pearson } from "./pearson.ts"

// Pair keys follow the spec's `<column_a>-<column_b>`, a before b in column order. Date and datetime columns take
// part in neither correlations nor associations.
const pairKey = (a: { readonly name: string }, b: { readonly name: string }) => `${a.name}-${b.name}`

export const correlations = (input: ProfileInput): Record<string, number | null> => {
  const numeric = input.columns.filter(isNumericColumn)
  const stats = numeric.map((column) => columnStats(column.values))
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
  const result: Record<string, Association> = {}
  const columns = input.columns
  const eligible = (column: CategoricalColumn) => column.categories.length <= maxCategories
  // Per column index, computed on first use: null for columns with missing values.
  const spreads = new Map<number, ReturnType<typeof completeSpread>>()
  const categoryCounts = new Map<number, ReturnType<typeof completeCategoryCounts>>()
  for (let i = 0; i < columns.length; i++) {
    for (let j = i + 1; j < columns.length; j++) {
      const a = columns[i]!
      const b = columns[j]!
      if (isCategoricalColumn(a) && isCategoricalColumn(b)) {
        if (!eligible(a) || !eligible(b)) continue
        const value = cramersV(a.codes, a.categories.length, b.codes, b.categories.length)
        result[pairKey(a, b)] = { method: "cramers_v", value }
        continue
      }
      const numeric = [a, b].find(isNumericColumn)
      const categorical = [a, b].find(isCategoricalColumn)
      if (numeric === undefined || categorical === undefined || !eligible(categorical)) continue
      const [numericIndex, categoricalIndex] = numeric === a ? [i, j] : [j, i]
      if (!spreads.has(numericIndex)) spreads.set(numericIndex, completeSpread(numeric.values))
      if (!categoryCounts.has(categoricalIndex)) {
        categoryCounts.set(categoricalIndex, completeCategoryCounts(categorical.codes, categorical.categories.length))
      }
      const spread = spreads.get(numericIndex) ?? null
      const counts = categoryCounts.get(categoricalIndex) ?? null
      const complete = spread !== null && counts !== null ? { spread, categoryCounts: counts } : null
      const value = correlationRatio(numeric.values, categorical.codes, categorical.categories.length, complete)
      result[pairKey(a, b)] = { method: "correlation_ratio", value }
    }
  }
  return result
}
