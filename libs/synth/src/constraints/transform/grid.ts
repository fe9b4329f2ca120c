import { learnRounding, type Rounding, roundValue } from "../../rounding.ts"
import type { ContinuousColumn } from "../../table.ts"

/**
 * The values a column writes (its rounding: whole units, a datetime step, a float's decimals), used by the constraint
 * transforms so that a restored value lands on the column's grid and still on the right side of its bound.
 */

export const roundingOf = (column: ContinuousColumn): Rounding => {
  const present = column.missing === null ? column.values : column.values.filter((_, row) => column.missing![row] === 0)
  return learnRounding(column.type, present)
}

/** The smallest difference the grid can write; 0 when it has none (a float of more than 10 decimals). */
export const gridStep = (rounding: Rounding): number =>
  rounding === null ? 0 : "step" in rounding ? rounding.step : 10 ** -rounding.decimals

/** Slack for floating-point error when a value is compared with a grid point (a grid unit is ≥ 1e-10). */
const slack = 1e-9

/** Grid points as integers: value / step for steps, value · 10^decimals for decimals (exact for those). */
const toUnits = (rounding: Exclude<Rounding, null>, value: number) =>
  "step" in rounding ? value / rounding.step : value * 10 ** rounding.decimals
const fromUnits = (rounding: Exclude<Rounding, null>, units: number) =>
  "step" in rounding ? units * rounding.step : units / 10 ** rounding.decimals

/** The nearest grid value, moved up to the first grid value at or above `low` (above it when strict) if it fell short. */
export const roundAtLeast = (rounding: Rounding, value: number, low: number, strict: boolean): number => {
  const rounded = roundValue(rounding, value)
  if (rounding === null || (strict ? rounded > low : rounded >= low)) return rounded
  const units = toUnits(rounding, low)
  return fromUnits(rounding, strict ? Math.floor(units + slack) + 1 : Math.ceil(units - slack))
}

/** The nearest grid value, moved down to the last grid value at or below `high` (below it when strict) if it went past. */
export const roundAtMost = (rounding: Rounding, value: number, high: number, strict: boolean): number => {
  const rounded = roundValue(rounding, value)
  if (rounding === null || (strict ? rounded < high : rounded <= high)) return rounded
  const units = toUnits(rounding, high)
  return fromUnits(rounding, strict ? Math.ceil(units - slack) - 1 : Math.floor(units + slack))
}
