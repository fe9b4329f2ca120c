import type { PreparedCategorical } from "./preparedCategorical.ts"

/**
 * The contingency table of two prepared columns, with a last row and column for rows missing that side: every row
 * adds one to a cell without a branch on missing values (which a column missing a fifth of its values mispredicts),
 * and the table proper is the rest.
 */
const contingencyTable = (a: PreparedCategorical, b: PreparedCategorical): Int32Array => {
  const aCodes = a.codes
  const bCodes = b.codes
  const width = b.categoryCount + 1
  // 32-bit counts: half the cache a wide table (200 × 1000 categories) takes as doubles.
  const table = new Int32Array((a.categoryCount + 1) * width)
  for (let row = 0; row < aCodes.length; row++) table[aCodes[row]! * width + bCodes[row]!]!++
  return table
}

/**
 * Cramér's V of two categorical columns over rows where both are present, without bias correction: as
 * scipy.stats.contingency.association(table, method="cramer") on the observed contingency table. Categories that no
 * such row uses are left out of the table (as pandas.crosstab does); null when either side has one category left.
 */
export const cramersV = (a: PreparedCategorical, b: PreparedCategorical): number | null => {
  const aCategories = a.categoryCount
  const bCategories = b.categoryCount
  const width = bCategories + 1
  const table = contingencyTable(a, b)
  const aTotals = new Float64Array(aCategories)
  const bTotals = new Float64Array(bCategories)
  let total = 0
  for (let aCode = 0; aCode < aCategories; aCode++) {
    for (let bCode = 0; bCode < bCategories; bCode++) {
      const count = table[aCode * width + bCode]!
      aTotals[aCode]! += count
      bTotals[bCode]! += count
      total += count
    }
  }
  let aUsed = 0
  let bUsed = 0
  for (const count of aTotals) if (count > 0) aUsed++
  for (const count of bTotals) if (count > 0) bUsed++
  const dimension = Math.min(aUsed - 1, bUsed - 1)
  if (dimension < 1) return null
  let chiSquared = 0
  for (let aCode = 0; aCode < aCategories; aCode++) {
    if (aTotals[aCode] === 0) continue
    for (let bCode = 0; bCode < bCategories; bCode++) {
      if (bTotals[bCode] === 0) continue
      const expected = (aTotals[aCode]! * bTotals[bCode]!) / total
      const difference = table[aCode * width + bCode]! - expected
      chiSquared += (difference * difference) / expected
    }
  }
  return Math.sqrt(chiSquared / total / dimension)
}
