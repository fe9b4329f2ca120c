import type { ColumnKind } from "../types.ts"

/**
 * The kind ingestion would give a column of these texts, and the text the scan then sees (what @synth/tabular's
 * inference does, in short): whole numbers without leading zeros become integers (a leading `+` is dropped), other
 * numbers floats, ISO dates dates; everything else stays text.
 */
export const asIngested = (values: ReadonlyArray<string | null>): { kind: ColumnKind; values: ReadonlyArray<string | null> } => {
  const present = values.filter((value): value is string => value !== null)
  if (present.length === 0) return { kind: "string", values }
  if (present.every((value) => /^\+?(?:0|[1-9]\d{0,14})$/.test(value))) {
    return { kind: "integer", values: values.map((value) => (value === null ? null : value.replace(/^\+/, ""))) }
  }
  if (present.every((value) => /^[+-]?(?:0|[1-9]\d*)?\.\d+$/.test(value) || /^[+-]?(?:0|[1-9]\d{0,14})$/.test(value))) {
    return { kind: "float", values: values.map((value) => (value === null ? null : String(Number(value)))) }
  }
  if (present.every((value) => /^\d{4}-\d{2}-\d{2}$/.test(value))) return { kind: "date", values }
  return { kind: "string", values }
}
