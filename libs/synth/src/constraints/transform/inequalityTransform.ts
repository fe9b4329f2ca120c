import { type Rounding, roundValue } from "../../rounding.ts"
import type { ContinuousColumn, SynthColumn } from "../../table.ts"
import { type ColumnLookup, type ColumnTransform, freshName } from "./ColumnTransform.ts"
import { gridStep, roundAtLeast, roundingOf } from "./grid.ts"
import { flag, numericType, rounding, text, textOrNull } from "./storedFields.ts"

/**
 * `low <= high` (or `<`) met by construction, as SDV's Inequality: the model learns log(1 + high − low − gap) in place
 * of `high` (gap: one grid step when strict, so the learned difference starts at 0 either way), and a sampled row's
 * `high` is `low` plus that difference, which is never negative. Rows of the learned table where value protection's
 * tail redraws put high below low count as a difference of 0.
 *
 * When `low` has missing values, `high` cannot be rebuilt from it in those rows: a second column carries `high` itself
 * there (missing elsewhere), so the model learns high's values for the rows that have no low.
 */
interface InequalityParameters {
  readonly low: string
  readonly high: string
  readonly strict: boolean
  /** The learned difference column. */
  readonly difference: string
  /** The column holding `high` where `low` is missing; null when low has no missing value. */
  readonly orphans: string | null
  readonly type: ContinuousColumn["type"]
  readonly sourceFormat: string | null
  readonly rounding: Rounding
}

const asContinuous = (column: SynthColumn): ContinuousColumn => {
  if (column.kind !== "continuous") throw new TypeError(`${column.name} is not a number, date or datetime column`)
  return column
}

const isPresent = (column: ContinuousColumn, row: number) => column.missing?.[row] !== 1

const continuous = (name: string, values: Float64Array, missing: Uint8Array): ContinuousColumn => ({
  kind: "continuous",
  name,
  type: "float",
  values,
  missing: missing.includes(1) ? missing : null,
  sourceFormat: null
})

const inequalityTransform = (parameters: InequalityParameters): ColumnTransform => {
  const { high, low, orphans, strict } = parameters
  const gap = strict ? gridStep(parameters.rounding) : 0

  const forward = (column: ColumnLookup, rowCount: number): ReadonlyArray<SynthColumn> => {
    const lows = asContinuous(column(low))
    const highs = asContinuous(column(high))
    const differences = new Float64Array(rowCount)
    const differenceMissing = new Uint8Array(rowCount)
    const orphanValues = new Float64Array(rowCount)
    const orphanMissing = new Uint8Array(rowCount)
    for (let row = 0; row < rowCount; row++) {
      const hasLow = isPresent(lows, row)
      const hasHigh = isPresent(highs, row)
      if (hasLow && hasHigh) differences[row] = Math.log1p(Math.max(0, highs.values[row]! - lows.values[row]! - gap))
      else differenceMissing[row] = 1
      if (!hasLow && hasHigh) orphanValues[row] = highs.values[row]!
      else orphanMissing[row] = 1
    }
    const learned = [continuous(parameters.difference, differences, differenceMissing)]
    return orphans === null ? learned : [...learned, continuous(orphans, orphanValues, orphanMissing)]
  }

  const reverse = (column: ColumnLookup, rowCount: number): ReadonlyArray<SynthColumn> => {
    const lows = asContinuous(column(low))
    const differences = asContinuous(column(parameters.difference))
    const orphanColumn = orphans === null ? null : asContinuous(column(orphans))
    const values = new Float64Array(rowCount)
    const missing = new Uint8Array(rowCount)
    for (let row = 0; row < rowCount; row++) {
      if (isPresent(lows, row)) {
        if (!isPresent(differences, row)) {
          missing[row] = 1
          continue
        }
        const lowValue = lows.values[row]!
        const difference = Math.max(0, Math.expm1(differences.values[row]!)) + gap
        values[row] = roundAtLeast(parameters.rounding, lowValue + difference, lowValue, strict)
      } else if (orphanColumn !== null && isPresent(orphanColumn, row)) {
        values[row] = roundValue(parameters.rounding, orphanColumn.values[row]!)
      } else {
        missing[row] = 1
      }
    }
    return [{ ...continuous(high, values, missing), type: parameters.type, sourceFormat: parameters.sourceFormat }]
  }

  return {
    replaces: [high],
    produces: orphans === null ? [parameters.difference] : [parameters.difference, orphans],
    reads: [low],
    forward,
    reverse,
    toJSON: () => ({ kind: "inequality", ...parameters })
  }
}

/** Fitted on the learned table: high's grid and type, and whether low has missing values. */
export const fitInequalityTransform = (
  constraint: { readonly low: string; readonly high: string; readonly strict: boolean },
  column: ColumnLookup,
  taken: ReadonlySet<string>
): ColumnTransform => {
  const lows = asContinuous(column(constraint.low))
  const highs = asContinuous(column(constraint.high))
  const difference = freshName(`log(${constraint.high} - ${constraint.low})`, taken)
  return inequalityTransform({
    ...constraint,
    difference,
    orphans: lows.missing === null ? null : freshName(`${constraint.high} where ${constraint.low} is missing`, new Set([...taken, difference])),
    type: highs.type,
    sourceFormat: highs.sourceFormat,
    rounding: roundingOf(highs)
  })
}

export const inequalityTransformFromJSON = (json: Readonly<Record<string, unknown>>): ColumnTransform =>
  inequalityTransform({
    low: text(json, "low"),
    high: text(json, "high"),
    strict: flag(json, "strict"),
    difference: text(json, "difference"),
    orphans: textOrNull(json, "orphans"),
    type: numericType(json, "type"),
    sourceFormat: textOrNull(json, "sourceFormat"),
    rounding: rounding(json, "rounding")
  })
