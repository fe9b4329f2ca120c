import type { Data, Field } from "apache-arrow"
import { millisecondsPerDay } from "../infer/calendar.ts"
import { dateWriter, instantWriter } from "../form/dateLayout.ts"
import { type FieldForm, fieldForm } from "../form/fieldForm.ts"
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

interface Column {
  readonly form: FieldForm
  readonly present: (index: number) => boolean
  /** The value at row `index` as a number (integers, floats, dates in days, datetimes in milliseconds). */
  readonly number: (index: number) => number
  readonly bit: (index: number) => boolean
  readonly text: (index: number) => string
}

const columnOf = (field: Field, data: Data): Column => {
  const at = data.offset
  const numbers = data.values as ArrayLike<number | bigint>
  const bits = data.values as Uint8Array
  const offsets = data.valueOffsets as Int32Array | undefined
  return {
    form: fieldForm(field),
    present: data.nullCount === 0 ? () => true : (index) => data.getValid(index),
    number: (index) => Number(numbers[at + index]),
    bit: (index) => {
      const position = at + index
      return (bits[position >> 3]! & (1 << (position & 7))) !== 0
    },
    text: (index) =>
      offsets === undefined ? "" : decoder.decode(bits.subarray(offsets[at + index], offsets[at + index + 1]))
  }
}

/** How each cell of a column is written as text (CSV), in the chosen form. */
export const cellText = (field: Field, data: Data, values: ValueForm): CellText => {
  const column = columnOf(field, data)
  const { form, present } = column
  const source = values === "source"
  const write = ((): (index: number) => string => {
    switch (form.type) {
      case "integer": {
        const writeNumber = source ? numberWriter(form.number, true) : String
        return (index) => writeNumber(column.number(index))
      }
      case "float": {
        const writeNumber = source ? numberWriter(form.number, false) : normalisedFloat
        return (index) => writeNumber(column.number(index))
      }
      case "boolean": {
        const [falseText, trueText] = source ? [form.falseText, form.trueText] : ["false", "true"]
        return (index) => (column.bit(index) ? trueText : falseText)
      }
      case "date": {
        const writeDate = source && form.layout !== null ? dateWriter(form.layout) : isoDate
        return (index) => writeDate(column.number(index))
      }
      case "datetime": {
        const writeInstant = source && form.layout !== null ? instantWriter(form.layout, form.offsetMinutes) : isoInstant
        return (index) => writeInstant(column.number(index))
      }
      default:
        return column.text
    }
  })()
  return (index) => (present(index) ? write(index) : undefined)
}

const finiteJson = (text: string): string => (text === "NaN" || text.endsWith("Infinity") ? "null" : text)

/**
 * How each cell of a column is written as a JSON value. Numbers are JSON numbers (in the source form, rounded to the
 * decimals the file wrote), booleans JSON booleans; dates and datetimes strings in the chosen form; a column that held
 * JSON arrays writes them back as arrays.
 */
export const cellJson = (field: Field, data: Data, values: ValueForm): CellJson => {
  const column = columnOf(field, data)
  const { form, present } = column
  const source = values === "source"
  const write = ((): (index: number) => string => {
    switch (form.type) {
      case "integer":
        return (index) => finiteJson(String(column.number(index)))
      case "float": {
        const decimals = { minDecimals: 0, maxDecimals: source ? form.number.maxDecimals : Number.POSITIVE_INFINITY }
        return (index) => finiteJson(plainFloatText(column.number(index), decimals))
      }
      case "boolean":
        return (index) => (column.bit(index) ? "true" : "false")
      case "date":
      case "datetime": {
        const text = cellText(field, data, values)
        return (index) => JSON.stringify(text(index))
      }
      default:
        return form.jsonArray
          ? (index) => {
            const text = column.text(index)
            return text.startsWith("[") ? text : JSON.stringify(text)
          }
          : (index) => JSON.stringify(column.text(index))
    }
  })()
  return (index) => (present(index) ? write(index) : "null")
}
