import type { Rounding } from "../../rounding.ts"
import type { ContinuousColumn, SynthColumn } from "../../table.ts"
import { type ColumnLookup, type ColumnTransform, freshName } from "./ColumnTransform.ts"
import { gridStep, roundAtLeast, roundAtMost, roundingOf } from "./grid.ts"
import { numberOrNull, numericType, rounding, text, textOrNull } from "./storedFields.ts"

/**
 * A range (and `positive`, a range from 0) met by construction, as SDV's ScalarRange and Positive: the model learns
 * the value mapped onto the whole line and every value it draws maps back inside. Between two bounds the value is
 * scaled to [0, 1], squeezed into [0.025, 0.975] (so values on a bound, a discount of exactly 0, stay finite) and
 * put through the logit; the reverse applies the sigmoid, unsqueezes and clips to [0, 1]. Against one bound it learns
 * log(1 + distance to the bound). A strict bound is moved one grid step inwards, so `>` holds on the column's grid.
 */
interface RangeParameters {
  readonly column: string
  /** The learned column. */
  readonly learned: string
  /** The bounds in the column's units, strict ones already moved inwards; null: no bound on that side. */
  readonly low: number | null
  readonly high: number | null
  readonly type: ContinuousColumn["type"]
  readonly sourceFormat: string | null
  readonly rounding: Rounding
}

const squeeze = 0.025
const logit = (p: number) => Math.log(p / (1 - p))
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x))

const rangeTransform = (parameters: RangeParameters): ColumnTransform => {
  const { high, low } = parameters
  const toLine = (value: number): number => {
    if (low !== null && high !== null) {
      const share = high > low ? Math.min(1, Math.max(0, (value - low) / (high - low))) : 0.5
      return logit(squeeze + (1 - 2 * squeeze) * share)
    }
    return low !== null ? Math.log1p(Math.max(0, value - low)) : Math.log1p(Math.max(0, high! - value))
  }
  const fromLine = (learned: number): number => {
    if (low !== null && high !== null) {
      const share = Math.min(1, Math.max(0, (sigmoid(learned) - squeeze) / (1 - 2 * squeeze)))
      return low + share * (high - low)
    }
    return low !== null ? low + Math.max(0, Math.expm1(learned)) : high! - Math.max(0, Math.expm1(learned))
  }
  /** On the grid and inside: rounding may step over a bound that is not on the grid itself. */
  const onGrid = (value: number): number => {
    const atLeast = low === null ? value : roundAtLeast(parameters.rounding, value, low, false)
    return high === null ? atLeast : roundAtMost(parameters.rounding, atLeast, high, false)
  }

  const forward = (column: ColumnLookup): ReadonlyArray<SynthColumn> => {
    const source = column(parameters.column) as ContinuousColumn
    return [{
      kind: "continuous",
      name: parameters.learned,
      type: "float",
      values: source.values.map((value, row) => (source.missing?.[row] === 1 ? 0 : toLine(value))),
      missing: source.missing,
      sourceFormat: null
    }]
  }

  const reverse = (column: ColumnLookup): ReadonlyArray<SynthColumn> => {
    const learned = column(parameters.learned) as ContinuousColumn
    return [{
      kind: "continuous",
      name: parameters.column,
      type: parameters.type,
      values: learned.values.map((value, row) => (learned.missing?.[row] === 1 ? 0 : onGrid(fromLine(value)))),
      missing: learned.missing,
      sourceFormat: parameters.sourceFormat
    }]
  }

  return { replaces: [parameters.column], produces: [parameters.learned], reads: [], forward, reverse, toJSON: () => ({ kind: "range", ...parameters }) }
}

/**
 * Fitted on the learned table: the column's grid and type. `min` and `max` are in the column's units; a strict bound
 * moves inwards by one grid step (the smallest step that can be written; none for a float without a grid).
 */
export const fitRangeTransform = (
  constraint: { readonly column: string; readonly min: number | null; readonly max: number | null; readonly strict: boolean },
  column: ColumnLookup,
  taken: ReadonlySet<string>
): ColumnTransform => {
  const source = column(constraint.column)
  if (source.kind !== "continuous") throw new TypeError(`${constraint.column} is not a number, date or datetime column`)
  const grid = roundingOf(source)
  const inwards = constraint.strict ? gridStep(grid) : 0
  const learnedName = constraint.min !== null && constraint.max !== null
    ? `logit(${constraint.column})`
    : `log(distance of ${constraint.column} to its bound)`
  return rangeTransform({
    column: constraint.column,
    learned: freshName(learnedName, taken),
    low: constraint.min === null ? null : constraint.min + inwards,
    high: constraint.max === null ? null : constraint.max - inwards,
    type: source.type,
    sourceFormat: source.sourceFormat,
    rounding: grid
  })
}

export const rangeTransformFromJSON = (json: Readonly<Record<string, unknown>>): ColumnTransform =>
  rangeTransform({
    column: text(json, "column"),
    learned: text(json, "learned"),
    low: numberOrNull(json, "low"),
    high: numberOrNull(json, "high"),
    type: numericType(json, "type"),
    sourceFormat: textOrNull(json, "sourceFormat"),
    rounding: rounding(json, "rounding")
  })
