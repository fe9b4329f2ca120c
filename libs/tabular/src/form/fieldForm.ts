import type { Field } from "apache-arrow"
import { columnTypeOf, sourceFormatKey } from "../arrow/tableSchema.ts"
import type { ColumnType } from "../infer/ColumnSchema.ts"
import { parseOffset } from "./dateLayout.ts"
import { formKeys } from "./formKeys.ts"
import { type NumberForm, plainNumberForm } from "./numberForm.ts"

/** How a column of a normalised table is written in its source form (read from its field metadata). */
export interface FieldForm {
  readonly type: ColumnType | undefined
  readonly falseText: string
  readonly trueText: string
  /** Dates and datetimes; null: ISO 8601. */
  readonly layout: string | null
  readonly offsetMinutes: number
  readonly number: NumberForm
  /** The keys of a JSON column flattened from nested objects; null for any other column. */
  readonly path: ReadonlyArray<string> | null
  readonly jsonArray: boolean
}

/** Spellings of the boolean pairs by their `synth.sourceFormat` name, for tables written before the spellings were kept. */
const pairSpellings: Readonly<Record<string, readonly [string, string]>> = {
  "true/false": ["true", "false"],
  "yes/no": ["yes", "no"],
  "y/n": ["y", "n"],
  "1/0": ["1", "0"]
}

const dateFormatNames = /^(?:YYYY-MM-DD|(?:MM|DD)([/.-])(?:MM|DD)\1YYYY)$/

/**
 * Tables ingested before the source forms were recorded (and outputs of models trained before) have only
 * `synth.sourceFormat`: the boolean pair in lower case, the date layout padded, numbers by their convention name.
 */
const layoutFromSourceFormat = (type: ColumnType | undefined, sourceFormat: string | undefined): string | null => {
  if (sourceFormat === undefined) return null
  if (type === "date") return dateFormatNames.test(sourceFormat) ? sourceFormat : null
  const datePart = sourceFormat.replace(/ hh:mm$/, "")
  return type === "datetime" && datePart !== sourceFormat && dateFormatNames.test(datePart) ? `${datePart} HH:mm:ss` : null
}

const numberFormOf = (field: Field, sourceFormat: string | undefined): NumberForm => {
  const decimalMark = field.metadata.get(formKeys.decimalMark) ??
    (sourceFormat === "decimal-comma" || sourceFormat === "dot-thousands" ? "," : ".")
  const groupMark = field.metadata.get(formKeys.groupMark) ??
    (sourceFormat === "thousands-separator" ? "," : sourceFormat === "dot-thousands" ? "." : null)
  const minDecimals = Number(field.metadata.get(formKeys.minDecimals) ?? 0)
  const maxDecimals = Number(field.metadata.get(formKeys.maxDecimals) ?? Number.POSITIVE_INFINITY)
  return {
    decimalMark: decimalMark === "," ? "," : ".",
    groupMark: groupMark === "," || groupMark === "." ? groupMark : null,
    minDecimals: Number.isInteger(minDecimals) && minDecimals >= 0 ? minDecimals : plainNumberForm.minDecimals,
    maxDecimals: Number.isInteger(maxDecimals) && maxDecimals >= 0 ? maxDecimals : plainNumberForm.maxDecimals
  }
}

const pathOf = (field: Field): ReadonlyArray<string> | null => {
  const text = field.metadata.get(formKeys.path)
  if (text === undefined) return null
  try {
    const path: unknown = JSON.parse(text)
    return Array.isArray(path) && path.length > 1 && path.every((key) => typeof key === "string") ? path : null
  } catch {
    return null
  }
}

export const fieldForm = (field: Field): FieldForm => {
  const type = columnTypeOf(field)
  const sourceFormat = field.metadata.get(sourceFormatKey)
  const [trueFallback, falseFallback] = pairSpellings[sourceFormat ?? ""] ?? pairSpellings["true/false"]!
  return {
    type,
    trueText: field.metadata.get(formKeys.trueText) ?? trueFallback,
    falseText: field.metadata.get(formKeys.falseText) ?? falseFallback,
    layout: field.metadata.get(formKeys.layout) ?? layoutFromSourceFormat(type, sourceFormat),
    offsetMinutes: parseOffset(field.metadata.get(formKeys.utcOffset)) ?? 0,
    number: numberFormOf(field, sourceFormat),
    path: pathOf(field),
    jsonArray: field.metadata.get(formKeys.jsonArray) === "true"
  }
}
