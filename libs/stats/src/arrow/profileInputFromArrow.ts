import { DataType, type Field, Precision, type Table, type Vector } from "apache-arrow"
import { Data as EffectData, Result } from "effect"
import type { CategoricalColumn, ColumnType, ProfileColumn, ProfileInput } from "../ProfileInput.ts"

/** A field this adapter cannot read as the logical type it carries (or as any type, without `synth.type`). */
export class UnsupportedArrowField extends EffectData.TaggedError("UnsupportedArrowField")<{
  readonly field: string
  readonly arrowType: string
  readonly logicalType: string | undefined
  readonly message: string
}> {}

const logicalTypes: ReadonlyArray<ColumnType> = ["integer", "float", "boolean", "date", "datetime", "string"]

/** The logical type @synth/tabular wrote in `synth.type`, else the one the storage type implies. */
const logicalType = (field: Field): ColumnType | undefined => {
  const declared = field.metadata.get("synth.type")
  if (declared !== undefined) return logicalTypes.find((type) => type === declared)
  const type = field.type
  if (DataType.isInt(type)) return "integer"
  if (DataType.isFloat(type)) return "float"
  if (DataType.isBool(type)) return "boolean"
  if (DataType.isDate(type)) return "date"
  if (DataType.isTimestamp(type)) return "datetime"
  if (DataType.isUtf8(type) || DataType.isLargeUtf8(type)) return "string"
  return undefined
}

const storageFits = (logical: ColumnType, type: DataType): boolean => {
  switch (logical) {
    case "integer":
    case "float":
      return DataType.isInt(type) || (DataType.isFloat(type) && type.precision !== Precision.HALF)
    case "boolean":
      return DataType.isBool(type)
    case "date":
    case "datetime":
      return DataType.isDate(type) || DataType.isTimestamp(type)
    case "string":
      return DataType.isUtf8(type) || DataType.isLargeUtf8(type)
  }
}

/** Numbers straight from each chunk's value buffer (already sliced to the chunk), NaN where the validity says null. */
const numericValues = (vector: Vector): Float64Array => {
  const values = new Float64Array(vector.length)
  let position = 0
  for (const chunk of vector.data) {
    const buffer = chunk.values as ArrayLike<number | bigint>
    for (let index = 0; index < chunk.length; index++) {
      values[position + index] = chunk.nullCount > 0 && !chunk.getValid(index) ? NaN : Number(buffer[index]!)
    }
    position += chunk.length
  }
  return values
}

/** Dates and timestamps as epoch milliseconds: apache-arrow's get() converts every unit to them. */
const temporalValues = (vector: Vector): Float64Array => {
  const values = new Float64Array(vector.length)
  for (let row = 0; row < vector.length; row++) {
    const value: unknown = vector.get(row)
    values[row] = value === null || value === undefined ? NaN : Number(value)
  }
  return values
}

const booleanCodes = (vector: Vector): Int32Array => {
  const codes = new Int32Array(vector.length)
  for (let row = 0; row < vector.length; row++) {
    const value: unknown = vector.get(row)
    codes[row] = value === null || value === undefined ? -1 : value ? 1 : 0
  }
  return codes
}

/** Dictionary-encodes strings in order of first appearance while scanning. */
const stringColumn = (name: string, vector: Vector): CategoricalColumn => {
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
  return { name, type: "string", codes, categories }
}

const readColumn = (field: Field, vector: Vector): Result.Result<ProfileColumn, UnsupportedArrowField> => {
  const logical = logicalType(field)
  if (logical === undefined || !storageFits(logical, field.type)) {
    const declared = field.metadata.get("synth.type")
    return Result.fail(
      new UnsupportedArrowField({
        field: field.name,
        arrowType: String(field.type),
        logicalType: declared,
        message: `Column ${field.name} is stored as ${String(field.type)}` +
          (declared === undefined ? "" : ` with synth.type ${declared}`) +
          `, which the profiler cannot read; write it as Int32/Float64, Bool, DateDay, TimestampMillisecond or Utf8.`
      })
    )
  }
  switch (logical) {
    case "integer":
    case "float":
      return Result.succeed({ name: field.name, type: logical, values: numericValues(vector) })
    case "date":
    case "datetime":
      return Result.succeed({ name: field.name, type: logical, values: temporalValues(vector) })
    case "boolean":
      return Result.succeed({ name: field.name, type: "boolean", codes: booleanCodes(vector), categories: ["false", "true"] })
    case "string":
      return Result.succeed(stringColumn(field.name, vector))
  }
}

/** The profiler's input from a normalised table as @synth/tabular writes it (see ProfileInput for the shapes). */
export const profileInputFromArrow = (table: Table): Result.Result<ProfileInput, UnsupportedArrowField> =>
  Result.map(
    Result.all(table.schema.fields.map((field, index) => readColumn(field, table.getChildAt(index)!))),
    (columns): ProfileInput => ({ rowCount: table.numRows, columns })
  )
