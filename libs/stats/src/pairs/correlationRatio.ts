/** Mean and total sum of squares of a numeric column's present values, shared by all its pairs. */
export interface PresentSpread {
  readonly mean: number
  readonly totalSquares: number
  /** Fewer than two distinct present values: no spread for a category to explain. */
  readonly constant: boolean
}

/** Over rows where the value is present and, given codes, the code too. */
const spread = (values: Float64Array, codes: Int32Array | null): PresentSpread | null => {
  let total = 0
  let count = 0
  let first = NaN
  let constant = true
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!
    if (Number.isNaN(value) || (codes !== null && codes[row]! < 0)) continue
    if (count === 0) first = value
    constant &&= value === first
    total += value
    count++
  }
  if (count === 0) return null
  const mean = total / count
  let totalSquares = 0
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!
    if (Number.isNaN(value) || (codes !== null && codes[row]! < 0)) continue
    totalSquares += (value - mean) * (value - mean)
  }
  return { mean, totalSquares, constant }
}

/** Facts shared by every pair of two columns without missing values, computed once per column. */
export interface CompletePair {
  /** The numeric column's spread over all rows. */
  readonly spread: PresentSpread
  /** Rows per category of the categorical column. */
  readonly categoryCounts: Float64Array
}

/** The spread of a numeric column with no missing values; null when it has some. */
export const completeSpread = (values: Float64Array): PresentSpread | null => {
  for (let row = 0; row < values.length; row++) if (Number.isNaN(values[row]!)) return null
  return spread(values, null)
}

/** Rows per category of a categorical column with no missing values; null when it has some. */
export const completeCategoryCounts = (codes: Int32Array, categoryCount: number): Float64Array | null => {
  const counts = new Float64Array(categoryCount)
  for (let row = 0; row < codes.length; row++) {
    const code = codes[row]!
    if (code < 0) return null
    counts[code]!++
  }
  return counts
}

// A function of its own so V8 optimises this hot loop apart from the general path.
const categorySums = (values: Float64Array, codes: Int32Array, categoryCount: number): Float64Array => {
  const sums = new Float64Array(categoryCount)
  for (let row = 0; row < values.length; row++) sums[codes[row]!]! += values[row]!
  return sums
}

/** Category sums and counts, then the spread, over rows where both are present. */
const pairwiseEta = (values: Float64Array, codes: Int32Array, categoryCount: number): number | null => {
  const sums = new Float64Array(categoryCount)
  const counts = new Float64Array(categoryCount)
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!
    const code = codes[row]!
    if (code < 0 || Number.isNaN(value)) continue
    sums[code]! += value
    counts[code]!++
  }
  const pairSpread = spread(values, codes)
  return pairSpread === null ? null : eta(sums, counts, pairSpread)
}

const eta = (sums: Float64Array, counts: Float64Array, { mean, totalSquares, constant }: PresentSpread) => {
  if (constant || !(totalSquares > 0)) return null
  let betweenSquares = 0
  for (let code = 0; code < counts.length; code++) {
    const n = counts[code]!
    if (n === 0) continue
    const deviation = sums[code]! / n - mean
    betweenSquares += n * deviation * deviation
  }
  return Math.min(1, Math.sqrt(betweenSquares / totalSquares))
}

/**
 * The correlation ratio η of a numeric column given a categorical one, over rows where both are present:
 * sqrt(between-category sum of squares / total sum of squares), 0 when the category says nothing about the number
 * and 1 when it determines it. Null when the numbers are constant (or absent) over those rows. With `complete`
 * (neither column misses a value) one tight pass of sums suffices; there are many such pairs in a wide table.
 */
export const correlationRatio = (
  values: Float64Array,
  codes: Int32Array,
  categoryCount: number,
  complete: CompletePair | null
): number | null => {
  if (complete !== null) return eta(categorySums(values, codes, categoryCount), complete.categoryCounts, complete.spread)
  return pairwiseEta(values, codes, categoryCount)
}
