import type { ContinuousColumn } from "@synth/synth"

const MS_PER_DAY = 86_400_000

/** What comparableValues' numbers count: plain values, days since 1970 (two dates) or milliseconds (else). */
export type ValueUnit = "value" | "days" | "milliseconds"

const isTime = (column: ContinuousColumn) => column.type === "date" || column.type === "datetime"

export const unitOf = (real: ContinuousColumn, synthetic: ContinuousColumn): ValueUnit => {
  if (!isTime(real) || !isTime(synthetic)) return "value"
  return real.type === "date" && synthetic.type === "date" ? "days" : "milliseconds"
}

/**
 * Two continuous columns' values, NaN where missing, in one unit: a date (days) meets a datetime (milliseconds) in
 * milliseconds, as pandas compares both as datetime64; otherwise each column's own unit.
 */
export const comparableValues = (real: ContinuousColumn, synthetic: ContinuousColumn): [Float64Array, Float64Array] => {
  const unit = unitOf(real, synthetic)
  const convert = (column: ContinuousColumn) => {
    const factor = unit === "milliseconds" && column.type === "date" ? MS_PER_DAY : 1
    return column.values.map((value, i) => (column.missing !== null && column.missing[i] === 1 ? NaN : value * factor))
  }
  return [convert(real), convert(synthetic)]
}
