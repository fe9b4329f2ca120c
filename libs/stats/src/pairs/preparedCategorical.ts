/** A categorical column prepared once for all of its pairs, Cramér's V and η alike. */
export interface PreparedCategorical {
  /** The codes with missing (−1) moved to an extra last category, so the hot loop needs no branch. */
  readonly codes: Int32Array
  readonly categoryCount: number
  /** Rows per category (present rows only). */
  readonly counts: Float64Array
  /** Rows missing the category. */
  readonly missingRows: Int32Array
}

export const prepareCategorical = (codes: Int32Array, categoryCount: number): PreparedCategorical => {
  const counts = new Float64Array(categoryCount)
  let missing = 0
  for (let row = 0; row < codes.length; row++) {
    const code = codes[row]!
    if (code < 0) missing++
    else counts[code]!++
  }
  if (missing === 0) return { codes, categoryCount, counts, missingRows: new Int32Array(0) }
  const bucketed = new Int32Array(codes.length)
  const missingRows = new Int32Array(missing)
  let next = 0
  for (let row = 0; row < codes.length; row++) {
    const code = codes[row]!
    if (code >= 0) bucketed[row] = code
    else {
      bucketed[row] = categoryCount
      missingRows[next++] = row
    }
  }
  return { codes: bucketed, categoryCount, counts, missingRows }
}
