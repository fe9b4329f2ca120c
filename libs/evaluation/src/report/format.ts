import type { ContinuousColumn } from "@synth/synth"

const DASH = "—"
const DAY_MS = 86_400_000

/** A 0 … 1 score or share as a percentage; a dash where there is none. */
export const percent = (value: number | null | undefined, digits = 1): string =>
  value === null || value === undefined || Number.isNaN(value) ? DASH : `${(value * 100).toFixed(digits)} %`

export const decimal = (value: number | null | undefined, digits = 3): string =>
  value === null || value === undefined || Number.isNaN(value) ? DASH : value.toFixed(digits)

/** A bin edge in the column's own terms: dates and datetimes as ISO text, integers whole, floats with 4 significant digits. */
export const edgeLabel = (value: number, type: ContinuousColumn["type"]): string => {
  if (type === "date") return new Date(Math.round(value) * DAY_MS).toISOString().slice(0, 10)
  if (type === "datetime") return new Date(Math.round(value)).toISOString().slice(0, 16).replace("T", " ")
  if (type === "integer") return Math.round(value).toString()
  return Number(value.toPrecision(4)).toString()
}

/** At most `length` characters, an ellipsis marking the cut (the full text goes in a tooltip). */
export const truncate = (text: string, length: number): string =>
  text.length <= length ? text : `${text.slice(0, length - 1)}…`
