import { DataType, DateUnit, type Vector } from "apache-arrow"
import { Utf8Dictionary } from "./utf8Dictionary.ts"

/** A column's values as numbers: 0 where `missing` marks a null row; `missing` is null when the column has none. */
export interface ColumnNumbers {
  readonly values: Float64Array
  readonly missing: Uint8Array | null
}

/** Integers and floats straight from each chunk's value buffer (already sliced to the chunk). */
export const numbersOf = (vector: Vector): ColumnNumbers => {
  const values = new Float64Array(vector.length)
  const missing = new Uint8Array(vector.length)
  let position = 0
  for (const chunk of vector.data) {
    const buffer = chunk.values as ArrayLike<number | bigint>
    for (let index = 0; index < chunk.length; index++) {
      if (chunk.nullCount > 0 && !chunk.getValid(index)) missing[position + index] = 1
      else values[position + index] = Number(buffer[index]!)
    }
    position += chunk.length
  }
  return { values, missing: vector.nullCount > 0 ? missing : null }
}

const millisecondsPerDay = 86_400_000

/** Dates and timestamps as milliseconds since the epoch: apache-arrow's get() converts every unit to them. */
export const epochMillisOf = (vector: Vector): ColumnNumbers =>
  DataType.isDate(vector.type) && vector.type.unit === DateUnit.DAY ? epochMillisOfDays(vector) : epochMillisByValue(vector)

/** Day dates straight from each chunk's day counts (what get() multiplies, without its search for the chunk). */
const epochMillisOfDays = (vector: Vector): ColumnNumbers => {
  const values = new Float64Array(vector.length)
  const missing = new Uint8Array(vector.length)
  let position = 0
  for (const chunk of vector.data) {
    const days = chunk.values as Int32Array
    for (let index = 0; index < chunk.length; index++) {
      if (chunk.nullCount > 0 && !chunk.getValid(index)) missing[position + index] = 1
      else values[position + index] = millisecondsPerDay * days[index]!
    }
    position += chunk.length
  }
  return { values, missing: vector.nullCount > 0 ? missing : null }
}

const epochMillisByValue = (vector: Vector): ColumnNumbers => {
  const values = new Float64Array(vector.length)
  const missing = new Uint8Array(vector.length)
  for (let row = 0; row < vector.length; row++) {
    const value: unknown = vector.get(row)
    if (value === null || value === undefined) missing[row] = 1
    else values[row] = Number(value)
  }
  return { values, missing: vector.nullCount > 0 ? missing : null }
}

/** The values with NaN in the null rows (a fresh array only when there are any). */
export const withNaNForMissing = ({ missing, values }: ColumnNumbers): Float64Array => {
  if (missing === null) return values
  return values.map((value, row) => (missing[row] === 1 ? NaN : value))
}

/** Category codes of a column: its values' indexes in `categories`, -1 for null. */
export interface DictionaryCodes {
  readonly codes: Int32Array
  readonly categories: ReadonlyArray<string>
}

/** Booleans as codes of the categories ["false", "true"]. */
export const booleanCodesOf = (vector: Vector): DictionaryCodes => {
  const codes = new Int32Array(vector.length)
  for (let row = 0; row < vector.length; row++) {
    const value: unknown = vector.get(row)
    codes[row] = value === null || value === undefined ? -1 : value ? 1 : 0
  }
  return { codes, categories: ["false", "true"] }
}

/** Strings dictionary-encoded in order of first appearance. */
export const dictionaryEncode = (vector: Vector): DictionaryCodes =>
  DataType.isUtf8(vector.type) ? utf8Codes(vector) : valueCodes(vector)

/** Utf8 columns by their bytes: each distinct value is decoded once (Utf8Dictionary). */
const utf8Codes = (vector: Vector): DictionaryCodes => {
  const codes = new Int32Array(vector.length)
  const dictionary = new Utf8Dictionary()
  let row = 0
  for (const chunk of vector.data) {
    const offsets = chunk.valueOffsets as Int32Array
    const bytes = chunk.values as Uint8Array
    const hasNulls = chunk.nullCount > 0
    for (let index = 0; index < chunk.length; index++, row++) {
      codes[row] = hasNulls && !chunk.getValid(index) ? -1 : dictionary.codeOf(bytes, offsets[index]!, offsets[index + 1]!)
    }
  }
  return { codes, categories: dictionary.categories }
}

/** Any other string storage (LargeUtf8), value by value. */
const valueCodes = (vector: Vector): DictionaryCodes => {
  const codes = new Int32Array(vector.length)
  const dictionary = new Map<string, number>()
  const categories: Array<string> = []
  for (let row = 0; row < vector.length; row++) {
    const value: unknown = vector.get(row)
    if (value === null || value === undefined) {
      codes[row] = -1
      continue
    }
    const text = String(value)
    let code = dictionary.get(text)
    if (code === undefined) {
      code = categories.length
      dictionary.set(text, code)
      categories.push(text)
    }
    codes[row] = code
  }
  return { codes, categories }
}
