import type { ColumnType } from "../table.ts"
import type { BoundValue } from "./rules.ts"

/**
 * A request's values in a column's own units (SynthTable's: numbers as they are, dates as days since 1970-01-01,
 * datetimes as milliseconds since the epoch), or null when the value is not one of that column's kind.
 */

const millisecondsPerDay = 86_400_000

const isoDate = /^\d{4}-\d{2}-\d{2}$/
const isoDateTime = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i
const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i

/** Date.parse reads an ISO text without an offset as local time; the tables' datetimes are UTC, so the text is too. */
const instantOf = (text: string): number | null => {
  if (isoDate.test(text)) return Date.parse(`${text}T00:00:00Z`)
  if (!isoDateTime.test(text)) return null
  const parsed = Date.parse(hasOffset.test(text) ? text.replace(" ", "T") : `${text.replace(" ", "T")}Z`)
  return Number.isNaN(parsed) ? null : parsed
}

export type NumericType = "integer" | "float" | "date" | "datetime"

export const isNumericType = (type: ColumnType): type is NumericType => type !== "string" && type !== "boolean"

export const isTemporalType = (type: ColumnType): boolean => type === "date" || type === "datetime"

/** Numbers for integer and float columns, ISO 8601 dates (or datetimes, for a datetime column) for temporal ones. */
export const valueInColumnUnits = (type: NumericType, value: BoundValue): number | null => {
  if (type === "integer" || type === "float") return typeof value === "number" && Number.isFinite(value) ? value : null
  if (typeof value !== "string") return null
  if (type === "date") return isoDate.test(value) ? Math.round(Date.parse(`${value}T00:00:00Z`) / millisecondsPerDay) : null
  return instantOf(value)
}

/** What a request may write for a value of the given type, for messages. */
export const expectedValue = (type: NumericType): string =>
  type === "date" ? "an ISO 8601 date (YYYY-MM-DD)" : type === "datetime" ? "an ISO 8601 datetime (or date)" : "a number"

const trueTexts: ReadonlySet<string> = new Set(["true", "yes", "y", "t", "1"])
const falseTexts: ReadonlySet<string> = new Set(["false", "no", "n", "f", "0"])

/**
 * A condition's value for a boolean column: JSON true/false, or a common spelling of them (`"Yes"`, `"no"`, `"1"`),
 * since the source may have written the column that way and the user repeats what the file shows.
 */
export const booleanOf = (value: unknown): boolean | null => {
  if (typeof value === "boolean") return value
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim().toLowerCase() : null
  if (text === null) return null
  return trueTexts.has(text) ? true : falseTexts.has(text) ? false : null
}

/** "an integer column", "a date column": for messages. */
export const columnOfType = (type: ColumnType): string => `${type === "integer" ? "an" : "a"} ${type} column`
