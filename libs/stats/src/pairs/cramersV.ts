/**
 * Cramér's V of two dictionary-encoded columns over rows where both are present, without bias correction: as
 * scipy.stats.contingency.association(table, method="cramer") on the observed contingency table. Categories that no
 * such row uses are left out of the table (as pandas.crosstab does); null when either side has one category left.
 */
export const cramersV = (a: Int32Array, aCategories: number, b: Int32Array, bCategories: number): number | null => {
  const table = new Float64Array(aCategories * bCategories)
  let total = 0
  for (let row = 0; row < a.length; row++) {
    const aCode = a[row]!
    const bCode = b[row]!
    if (aCode < 0 || bCode < 0) continue
    table[aCode * bCategories + bCode]!++
    total++
  }
  const aTotals = new Float64Array(aCategories)
  const bTotals = new Float64Array(bCategories)
  for (let aCode = 0; aCode < aCategories; aCode++) {
    for (let bCode = 0; bCode < bCategories; bCode++) {
      const count = table[aCode * bCategories + bCode]!
      aTotals[aCode]! += count
      bTotals[bCode]! += count
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
      const difference = table[aCode * bCategories + bCode]! - expected
      chiSquared += (difference * difference) / expected
    }
  }
  return Math.sqrt(chiSquared / total / dimension)
}
