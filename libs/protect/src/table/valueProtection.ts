import type { ContinuousColumn, Random } from "@synth/synth"

/** The range a column's output may take. */
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

const presentValues = (column: ContinuousColumn): Float64Array => {
  if (column.missing === null) return Float64Array.from(column.values)
  const present = new Float64Array(column.values.length)
  let count = 0
  for (let row = 0; row < column.values.length; row++) {
    if (column.missing[row] === 0) present[count++] = column.values[row]!
  }
  return present.slice(0, count)
}

const isMultipleOf = (value: number, step: number) => Math.abs(value / step - Math.round(value / step)) < 1e-9

/**
 * The spacing of a column's values, so that redrawn values look like the others: whole numbers and dates by 1, a
 * datetime by the coarsest of day, hour, minute, second or millisecond that divides every value, a float by its
 * largest count of decimals (at most 10).
 */
export const valueStep = (type: ContinuousColumn["type"], present: Float64Array): number => {
  if (type === "integer" || type === "date") return 1
  if (type === "datetime") {
    return [86_400_000, 3_600_000, 60_000, 1_000].find((step) => present.every((value) => isMultipleOf(value, step))) ?? 1
  }
  for (let decimals = 0; decimals < 10; decimals++) {
    const step = 10 ** -decimals
    if (present.every((value) => isMultipleOf(value, step))) return step
  }
  return 1e-10
}

/** Value protection's decisions for one column: its range, and the spans its tails are redrawn in. */
interface TailPlan {
  readonly bounds: ValueBounds
  /** Values at or below `low.through` are redrawn in [bounds.low, low.to]; likewise at the top. */
  readonly low: { readonly through: number; readonly to: number }
  readonly high: { readonly through: number; readonly from: number }
  readonly step: number
}

const tailPlan = (column: ContinuousColumn, k: number): TailPlan | null => {
  const present = presentValues(column)
  if (present.length === 0) return null
  present.sort()
  const step = valueStep(column.type, present)
  const rank = protectedRank(present.length, k)
  if (present.length < 2 * rank - 1) {
    const median = present[Math.ceil(present.length / 2) - 1]!
    return { bounds: { low: median, high: median }, low: { through: median, to: median }, high: { through: median, from: median }, step }
  }
  const at = (index: number) => present[Math.min(present.length - 1, Math.max(0, index))]!
  const low = at(rank - 1)
  const high = at(present.length - rank)
  // The inner end of each tail's span: the 2r-th value from that end, never past the middle of the range.
  const middle = (low + high) / 2
  return {
    bounds: { low, high },
    low: { through: low, to: Math.min(at(2 * rank - 1), middle) },
    high: { through: high, from: Math.max(at(present.length - 2 * rank), middle) },
    step
  }
}

/**
 * Value protection's range for a number, date or datetime column: from its r-th smallest to its r-th largest value
 * (r = protectedRank). With fewer than 2r − 1 values no range has r values beyond each end: the column collapses to
 * its (lower) median. Null when the column has no value at all.
 */
export const valueBounds = (column: ContinuousColumn, k: number): ValueBounds | null => tailPlan(column, k)?.bounds ?? null

const roundTo = (value: number, step: number) => {
  const rounded = Math.round(value / step) * step
  return step < 1 ? Number(rounded.toFixed(Math.min(10, Math.round(-Math.log10(step))))) : rounded
}

/**
 * Value protection before training. Every value in a tail — at or beyond the r-th value from its end — is redrawn
 * uniformly between that end and the 2r-th value from it, on the column's step. Clamping would pile the tail onto
 * one real value (someone's birth date published r times over); redrawn, the tail keeps its mass and its place while
 * neither the outliers nor the end values themselves stand out. The draws are handed out in the tail's own order (the
 * smallest value gets the smallest draw), so the rows of a tail keep their ranks, and with them the order they have
 * against the other columns. `redrawn` counts the values changed.
 */
export const protectTails = (
  column: ContinuousColumn,
  k: number,
  random: Random
): { readonly column: ContinuousColumn; readonly bounds: ValueBounds | null; readonly redrawn: number } => {
  const plan = tailPlan(column, k)
  if (plan === null) return { column, bounds: null, redrawn: 0 }
  const { bounds, high, low, step } = plan
  const values = Float64Array.from(column.values)
  const present = (row: number) => column.missing === null || column.missing[row] === 0
  const lowRows: Array<number> = []
  const highRows: Array<number> = []
  for (let row = 0; row < values.length; row++) {
    if (!present(row)) continue
    if (values[row]! <= low.through) lowRows.push(row)
    else if (values[row]! >= high.through) highRows.push(row)
  }
  const redraw = (rows: Array<number>, from: number, to: number) => {
    rows.sort((a, b) => column.values[a]! - column.values[b]!)
    const draws = Float64Array.from(rows, () => Math.min(to, Math.max(from, roundTo(from + random.next() * (to - from), step)))).sort()
    rows.forEach((row, index) => (values[row] = draws[index]!))
  }
  redraw(lowRows, bounds.low, low.to)
  redraw(highRows, high.from, bounds.high)
  let redrawn = 0
  for (let row = 0; row < values.length; row++) if (present(row) && values[row] !== column.values[row]) redrawn++
  return { column: { ...column, values }, bounds, redrawn }
}
