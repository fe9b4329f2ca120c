import type { Data, Field } from "apache-arrow"
import { millisecondsPerDay } from "../infer/calendar.ts"
import { columnTypeOf } from "../arrow/tableSchema.ts"
import { csvField } from "./csvField.ts"

/** Renders row `index` of one column of a batch as a CSV field; a missing value is the empty field. */
export type FieldRenderer = (index: number) => string

const decoder = new TextDecoder()

/**
 * Floats are written in the shortest form that reads back to the same double, and with `.0` when that form looks
 * like an integer: read again, `2` would make a float column of whole numbers an integer column.
 */
const renderFloat = (value: number): string => {
  const text = String(value)
  return Number.isInteger(value) && !text.includes("e") ? `${text}.0` : text
}

export const fieldRenderer = (field: Field, data: Data): FieldRenderer => {
  const present = (index: number): boolean => data.nullCount === 0 || data.getValid(index)
  const values = data.values as ArrayLike<number | bigint>
  const at = data.offset
  switch (columnTypeOf(field)) {
    case "integer":
      return (index) => (present(index) ? String(values[at + index]) : "")
    case "float":
      return (index) => (present(index) ? renderFloat(values[at + index] as number) : "")
    case "boolean": {
      const bits = data.values as Uint8Array
      return (index) => {
        if (!present(index)) return ""
        const bit = at + index
        return (bits[bit >> 3]! & (1 << (bit & 7))) !== 0 ? "true" : "false"
      }
    }
    case "date":
      return (index) =>
        present(index) ? new Date((values[at + index] as number) * millisecondsPerDay).toISOString().slice(0, 10) : ""
    case "datetime":
      return (index) => (present(index) ? new Date(Number(values[at + index])).toISOString() : "")
    default: {
      const offsets = data.valueOffsets as Int32Array
      const bytes = data.values as Uint8Array
      return (index) =>
        present(index) ? csvField(decoder.decode(bytes.subarray(offsets[at + index], offsets[at + index + 1]))) : ""
    }
  }
}
