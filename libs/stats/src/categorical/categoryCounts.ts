export interface CategoryCounts {
  /** Rows per category index. */
  readonly counts: Float64Array
  readonly presentCount: number
  /** Categories at least one row uses. */
  readonly usedCount: number
}

export const categoryCounts = (codes: Int32Array, categoryCount: number): CategoryCounts => {
  const counts = new Float64Array(categoryCount)
  let presentCount = 0
  for (let row = 0; row < codes.length; row++) {
    const code = codes[row]!
    if (code >= 0) {
      counts[code]!++
      presentCount++
    }
  }
  let usedCount = 0
  for (let code = 0; code < categoryCount; code++) if (counts[code]! > 0) usedCount++
  return { counts, presentCount, usedCount }
}
