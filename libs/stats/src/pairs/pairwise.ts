import type { CentredColumn } from "../numeric/centredColumn.ts"
import type { Association } from "../Profile.ts"
import type { CategoricalColumn, NumericColumn, ProfileColumn, ProfileInput } from "../ProfileInput.ts"
import { isCategoricalColumn, isNumericColumn } from "../ProfileInput.ts"
import { correlationRatio, etaSums } from "./correlationRatio.ts"
import { cramersV } from "./cramersV.ts"
import { pearsonPairs } from "./pearson.ts"
import type { PreparedCategorical } from "./preparedCategorical.ts"
import { prepareCategorical } from "./preparedCategorical.ts"

// Pair keys follow the spec's `<column_a>-<column_b>`, a before b in column order. Date and datetime columns take
// part in neither correlations nor associations.
const pairKey = (a: { readonly name: string }, b: { readonly name: string }) => `${a.name}-${b.name}`

/** A numeric column with its CentredColumn, which the column's own profile also uses. */
export interface CentredNumeric {
  readonly column: NumericColumn
  readonly centred: CentredColumn
}

export const correlations = (
  input: ProfileInput,
  numeric: ReadonlyArray<CentredNumeric>
): Record<string, number | null> => {
  const values = pearsonPairs(numeric.map(({ centred }) => centred), input.rowCount)
  const result: Record<string, number | null> = {}
  let pair = 0
  for (let i = 0; i < numeric.length; i++) {
    for (let j = i + 1; j < numeric.length; j++) {
      result[pairKey(numeric[i]!.column, numeric[j]!.column)] = values[pair++]!
    }
  }
  return result
}

/** η for every numeric–categorical pair, keyed numeric column first. */
const correlationRatios = (
  input: ProfileInput,
  numeric: ReadonlyArray<CentredNumeric>,
  categorical: ReadonlyArray<readonly [CategoricalColumn, PreparedCategorical]>
): Map<string, number | null> => {
  const categoricals = categorical.map(([, prepared]) => prepared)
  const sums = etaSums(categoricals, numeric.map(({ centred }) => centred), input.rowCount)
  const etas = new Map<string, number | null>()
  categorical.forEach(([other, prepared], i) => {
    numeric.forEach(({ column, centred }, j) => {
      etas.set(pairKey(column, other), correlationRatio(centred, prepared, column.values, sums[i]![j]!))
    })
  })
  return etas
}

/**
 * Cramér's V for categorical pairs and η for numeric–categorical pairs. A categorical column with more categories
 * than `maxCategories` is skipped (its pairs are absent), since its tables would grow with its cardinality.
 */
export const associations = (
  input: ProfileInput,
  numeric: ReadonlyArray<CentredNumeric>,
  maxCategories: number
): Record<string, Association> => {
  const columns = input.columns
  const eligible = (column: ProfileColumn): column is CategoricalColumn =>
    isCategoricalColumn(column) && column.categories.length <= maxCategories
  const prepared = new Map<ProfileColumn, PreparedCategorical>()
  for (const column of columns) {
    if (eligible(column)) prepared.set(column, prepareCategorical(column.codes, column.categories.length))
  }
  const etas = correlationRatios(
    input,
    numeric,
    columns.filter(eligible).map((column) => [column, prepared.get(column)!] as const)
  )
  const result: Record<string, Association> = {}
  for (let i = 0; i < columns.length; i++) {
    for (let j = i + 1; j < columns.length; j++) {
      const a = columns[i]!
      const b = columns[j]!
      if (eligible(a) && eligible(b)) {
        result[pairKey(a, b)] = { method: "cramers_v", value: cramersV(prepared.get(a)!, prepared.get(b)!) }
      } else if (isNumericColumn(a) && eligible(b)) {
        result[pairKey(a, b)] = { method: "correlation_ratio", value: etas.get(pairKey(a, b))! }
      } else if (eligible(a) && isNumericColumn(b)) {
        result[pairKey(a, b)] = { method: "correlation_ratio", value: etas.get(pairKey(b, a))! }
      }
    }
  }
  return result
}
