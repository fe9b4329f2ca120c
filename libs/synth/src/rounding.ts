import type { ContinuousColumn } from "./table.ts"

/**
 * How sampled values are rounded, learned from the data as SDV's `enforce_rounding` does: floats to the fewest
 * decimals (0 to 10) that reproduce every value, integers and dates to whole units, datetimes to the largest of
 * day, hour, minute, second or millisecond that divides every value. null: no rounding (a float needing more).
 */
export type Rounding = { readonly decimals: number } | { readonly step: number } | null

const DATETIME_STEPS = [86_400_000, 3_600_000, 60_000, 1000, 1]

export const learnRounding = (type: ContinuousColumn["type"], present: Float64Array): Rounding => {
  switch (type) {
    case "integer":
    case "date":
      return { step: 1 }
    case "datetime": {
      const step = DATETIME_STEPS.find((candidate) => present.every((value) => value % candidate === 0))
      return step === undefined ? null : { step }
    }
    case "float": {
      for (let decimals = 0; decimals <= 10; decimals++) {
        const factor = 10 ** decimals
        if (present.every((value) => Math.round(value * factor) / factor === value)) return { decimals }
      }
      return null
    }
  }
}

export const roundValue = (rounding: Rounding, value: number): number => {
  if (rounding === null) return value
  if ("step" in rounding) return Math.round(value / rounding.step) * rounding.step
  const factor = 10 ** rounding.decimals
  return Math.round(value * factor) / factor
}
