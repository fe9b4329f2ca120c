import type { CategoricalColumn, ContinuousColumn, SynthTable } from "@synth/synth"

/** A column of the real table with its namesake in the synthetic one (same kind). */
export type ColumnPair =
  | { readonly name: string; readonly kind: "continuous"; readonly real: ContinuousColumn; readonly synthetic: ContinuousColumn }
  | { readonly name: string; readonly kind: "categorical"; readonly real: CategoricalColumn; readonly synthetic: CategoricalColumn }

/** The real table's columns paired by name with the synthetic table's; the real table's types decide the metrics. */
export const pairColumns = (real: SynthTable, synthetic: SynthTable): ReadonlyArray<ColumnPair> => {
  const byName = new Map(synthetic.columns.map((column) => [column.name, column]))
  return real.columns.map((column): ColumnPair => {
    const partner = byName.get(column.name)
    if (column.kind === "continuous" && partner?.kind === "continuous") return { name: column.name, kind: "continuous", real: column, synthetic: partner }
    if (column.kind === "categorical" && partner?.kind === "categorical") return { name: column.name, kind: "categorical", real: column, synthetic: partner }
    throw new Error(`the synthetic table has no ${column.kind} column "${column.name}" to compare with the real one`)
  })
}

/** The present values of a continuous column in its own unit (days for dates, milliseconds for datetimes). */
export const presentValues = (column: ContinuousColumn): Float64Array => {
  if (column.missing === null) return column.values
  const missing = column.missing
  return column.values.filter((_, i) => missing[i] !== 1)
}

/** numpy's round(x, 14) (half to even of x·1e14): SDMetrics rounds float columns so before its KS test. */
const roundTo14 = (x: number): number => {
  const scaled = x * 1e14
  let rounded = Math.round(scaled)
  if (rounded - scaled === 0.5 && rounded % 2 !== 0) rounded -= 1
  return rounded / 1e14
}

/** The present values ascending, floats rounded to 14 decimals first, as SDMetrics' KSComplement prepares them. */
export const ksSample = (column: ContinuousColumn): Float64Array => {
  const present = presentValues(column)
  return (column.type === "float" ? present.map(roundTo14) : Float64Array.from(present)).sort()
}

