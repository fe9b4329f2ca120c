import type { SynthColumn } from "../table.ts"

/** SDMetrics' sdtypes as the Quality Report sees a SynthTable's columns. */
export type SdType = "numerical" | "datetime" | "categorical" | "boolean"

export const sdTypeOf = (column: SynthColumn): SdType => {
  switch (column.type) {
    case "integer":
    case "float":
      return "numerical"
    case "date":
    case "datetime":
      return "datetime"
    case "boolean":
      return "boolean"
    case "string":
      return "categorical"
  }
}

export const isContinuous = (sdType: SdType) => sdType === "numerical" || sdType === "datetime"

/** A column's values as numbers, NaN where missing (continuous columns). */
export const numbersOf = (column: SynthColumn): Float64Array => {
  if (column.kind !== "continuous") throw new Error(`column ${column.name} is not continuous`)
  const values = Float64Array.from(column.values)
  if (column.missing !== null) for (let i = 0; i < values.length; i++) if (column.missing[i] === 1) values[i] = NaN
  return values
}

/**
 * Nanoseconds since the epoch, as pandas gives datetimes to numpy: days × 8.64e13 and ms × 1e6 round to the same
 * doubles as numpy's int64 → float64, so histogram edges and bins match SDMetrics' exactly.
 */
export const nanosecondsOf = (column: SynthColumn, values: Float64Array): Float64Array =>
  column.type === "date" ? values.map((v) => v * 86_400_000_000_000) : column.type === "datetime" ? values.map((v) => v * 1_000_000) : values

/**
 * Categorical columns of the real and the synthetic table as ids into one label space (the union of their labels, by
 * text), −1 where missing: SDMetrics compares values, not codes, and the two tables may list categories differently.
 */
export const sharedLabelIds = (
  real: SynthColumn,
  synthetic: SynthColumn
): { readonly real: Int32Array; readonly synthetic: Int32Array; readonly labels: ReadonlyArray<string> } => {
  if (real.kind !== "categorical" || synthetic.kind !== "categorical") throw new Error(`column ${real.name} is not categorical in both tables`)
  const ids = new Map<string, number>()
  const idsOf = (categories: ReadonlyArray<string>) =>
    categories.map((label) => {
      let id = ids.get(label)
      if (id === undefined) {
        id = ids.size
        ids.set(label, id)
      }
      return id
    })
  const remap = (codes: Int32Array, mapping: ReadonlyArray<number>) => codes.map((code) => (code < 0 ? -1 : mapping[code]!))
  const realIds = remap(real.codes, idsOf(real.categories))
  const syntheticIds = remap(synthetic.codes, idsOf(synthetic.categories))
  return { real: realIds, synthetic: syntheticIds, labels: [...ids.keys()] }
}
