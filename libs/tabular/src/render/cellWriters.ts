import type { Data, Field } from "apache-arrow"
import { millisecondsPerDay } from "../infer/calendar.ts"
import { dateWriter, instantWriter } from "../form/dateLayout.ts"
import { fieldForm } from "../form/fieldForm.ts"
import { numberWriter, plainFloatText } from "../form/numberForm.ts"

/**
 * `source`: each column as the file wrote it (docs/datasets.md, "Source form"). `normalised`: ISO dates and
 * datetimes, booleans `true`/`false`, plain numbers with whole floats as `2.0` (so the column reads back as float).
 */
export type ValueForm = "source" | "normalised"

/** The text of row `index` of one column of a batch; undefined when the value is missing. */
export type CellText = (index: number) => string | undefined

/** The JSON text of row `index` (`null` when missing): numbers, booleans and nulls as JSON values, the rest strings. */
export type CellJson = (index: number) => string

const decoder = new TextDecoder()

const isoDate = (days: number): string => new Date(days * millisecondsPerDay).toISOString().slice(0, 10)
const isoInstant = (milliseconds: number): string => new Date(milliseconds).toISOString()

/** Normalised floats: the shortest text, with `.0` when that looks like an integer. */
const normalisedFloat = (value: number): string => {
  const text = String(value)
  return Number.isInteger(value) && !text.includes("e") ? `${text}.0` : text
}

/**
 * Row `index` of a column, read straight from the batch's buffers (a download reads every cell once, so this is its
 * hot loop): numbers as numbers (dates in days, datetimes in milliseconds), booleans from the bitmap, text decoded.
 */
const numberAt = (data: Data): ((index: number) => number) => {
  const at = data.offset
  const values = data.values as ArrayLike<number> | BigInt64Array
  if (values instanceof BigInt64Array) return (index) => Number(values[at + index]!)
  return (index) => (values as ArrayLike<number>)[at + index]!
}

const bitAt = (data: Data): ((index: number) => boolean) => {
  const at = data.offset
  const bits = data.values as Uint8Array
  return (index) => {
    const position = at + index
    return (bits[position >> 3]! & (1 << (position & 7))) !== 0
  }
}

const textAt = (data: Data): ((index: number) => string) => {
  const at = data.offset
  const offsets = data.valueOffsets as Int32Array | undefined
  const bytes = data.values as Uint8Array
  return (index) => (offsets === undefined ? "" : decoder.decode(bytes.subarray(offsets[at + index], offsets[at + index + 1])))
}

const presentAt = (data: Data): ((index: number) => boolean) | null =>
  data.nullCount === 0 ? null : (index) => data.getValid(index)

/** Writes every present cell with `write` and a missing one as `missing`. */
const orMissing = <T>(data: Data, write: (index: number) => T, missing: T): ((index: number) => T) => {
  const present = presentAt(data)
  return present === null ? write : (index) => (present(index) ? write(index) : missing)
}

/** How each cell of a column is written as text (CSV), in the chosen form. */
export const cellText = (field: Field, data: Data, values: ValueForm): CellText => {
  const form = fieldForm(field)
  const source = values === "source"
  const write = ((): (index: number) => string => {
    switch (form.type) {
      case "integer":
      case "float": {
        const writeNumber = !source
          ? (form.type === "integer" ? String : normalisedFloat)
          : numberWriter(form.number, form.type === "integer")
        const number = numberAt(data)
        return (index) => writeNumber(number(index))
      }
      case "boolean": {
        const [falseText, trueText] = source ? [form.falseText, form.trueText] : ["false", "true"]
        const bit = bitAt(data)
        return (index) => (bit(index) ? trueText : falseText)
      }
      case "date": {
        const writeDate = source && form.layout !== null ? dateWriter(form.layout) : isoDate
        const number = numberAt(data)
        return (index) => writeDate(number(index))
      }
      case "datetime": {
        const writeInstant = source && form.layout !== null ? instantWriter(form.layout, form.offsetMinutes) : isoInstant
        const number = numberAt(data)
        return (index) => writeInstant(number(index))
      }
      default:
        return textAt(data)
    }
  })()
  return orMissing<string | undefined>(data, write, undefined)
}

const finiteJson = (text: string): string => (text === "NaN" || text.endsWith("Infinity") ? "null" : text)

/**
 * How each cell of a column is written as a JSON value. Numbers are JSON numbers (in the source form, rounded to the
 * decimals the file wrote), booleans JSON booleans; dates and datetimes strings in the chosen form; a column that held
 * JSON arrays writes them back as arrays.
 */
export const cellJson = (field: Field, data: Data, values: ValueForm): CellJson => {
  const form = fieldForm(field)
  const source = values === "source"
  const write = ((): (index: number) => string => {
    switch (form.type) {
      case "integer": {
        const number = numberAt(data)
        return (index) => finiteJson(String(number(index)))
      }
      case "float": {
        const decimals = { minDecimals: 0, maxDecimals: source ? form.number.maxDecimals : Number.POSITIVE_INFINITY }
        const number = numberAt(data)
        return (index) => finiteJson(plainFloatText(number(index), decimals))
      }
      case "boolean": {
        const bit = bitAt(data)
        return (index) => (bit(index) ? "true" : "false")
      }
      case "date":
      case "datetime": {
        const text = cellText(field, data, values)
        return (index) => JSON.stringify(text(index))
      }
      default: {
        const text = textAt(data)
        return form.jsonArray
          ? (index) => {
            const cell = text(index)
            return cell.startsWith("[") ? cell : JSON.stringify(cell)
          }
          : (index) => JSON.stringify(text(index))
      }
    }
  })()
  return orMissing(data, write, "null")
}
