import type { ContinuousColumn } from "@synth/synth"

/** The range a column's output may take: every value outside it is moved to its nearer end. */
export interface ValueBounds {
  readonly low: number
  readonly high: number
}

/**
 * The rank of the order statistics that bound a column: at least k values lie at or beyond each end, so no end is
 * one person's value alone; on large tables at least a thousandth of the values, so a handful of people far out
 * (five billionaires in a million rows) do not stretch the range either.
 */
export const protectedRank = (present: number, k: number): number => Math.max(k, Math.ceil(present / 1000))

/**
 * Value protection's range for a number, date or datetime column: from its r-th smallest to its r-th largest value
 * (r = protectedRank). Both ends are values of the column, so they keep its rounding and format. With fewer than
 * 2r − 1 values no range has r values beyond each end: the column collapses to its (lower) median. Null when the
 * column has no value at all.
 */
export const valueBounds = (column: ContinuousColumn, k: number): ValueBounds | null => {
  const present = presentValues(column)
  if (present.length === 0) return null
  present.sort()
  const rank = protectedRank(present.length, k)
  if (present.length < 2 * rank - 1) {
    const median = present[Math.ceil(present.length / 2) - 1]!
    return { low: median, high: median }
  }
  return { low: present[rank - 1]!, high: present[present.length - rank]! }
}

const presentValues = (column: ContinuousColumn): Float64Array => {
  if (column.missing === null) return Float64Array.from(column.values)
  const present = new Float64Array(column.values.length)
  let count = 0
  for (let row = 0; row < column.values.length; row++) {
    if (column.missing[row] === 0) present[count++] = column.values[row]!
  }
  return present.slice(0, count)
}

/** The column with every present value moved inside the bounds, and how many moved. */
export const clampToBounds = (column: ContinuousColumn, bounds: ValueBounds): { readonly column: ContinuousColumn; readonly clipped: number } => {
  const values = new Float64Array(column.values.length)
  let clipped = 0
  for (let row = 0; row < values.length; row++) {
    const value = column.values[row]!
    if (column.missing !== null && column.missing[row] === 1) continue
    const bounded = value < bounds.low ? bounds.low : value > bounds.high ? bounds.high : value
    if (bounded !== value) clipped++
    values[row] = bounded
  }
  return { column: { ...column, values }, clipped }
}
