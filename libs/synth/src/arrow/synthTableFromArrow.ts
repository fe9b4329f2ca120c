import { DataType, type Field, type Table, type Vector } from "apache-arrow"
import { Data, Result } from "effect"
import type { CategoricalColumn, ColumnType, ContinuousColumn, SynthColumn, SynthTable, TableForm } from "../table.ts"

/** A field that is not a column of a normalised table (no `synth.type`, or a storage type that cannot hold it). */
export class UnsupportedColumn extends Data.TaggedError("UnsupportedColumn")<{
  readonly column: string
  readonly message: string
}> {}

const columnTypes: ReadonlyArray<ColumnType> = ["integer", "float", "boolean", "date", "datetime", "string"]
const millisecondsPerDay = 86_400_000

const storageFits = (type: ColumnType, storage: DataType): boolean => {
  switch (type) {
    case "integer":
    case "float":
      return DataType.isInt(storage) || DataType.isFloat(storage)
    case "date":
    case "datetime":
      return DataType.isDate(storage) || DataType.isTimestamp(storage)
    case "boolean":
      return DataType.isBool(storage)
    case "string":
      return DataType.isUtf8(storage)
  }
}

/** Numbers straight from each chunk's value buffer; `missing` marks nulls (null when there are none). */
const numericColumn = (field: Field, type: "integer" | "float", vector: Vector): ContinuousColumn => {
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
  return { kind: "continuous", name: field.name, type, values, ...withMissing(missing, vector.nullCount), sourceFormat: null }
}

/** Dates as days and datetimes as milliseconds since the epoch: apache-arrow's get() answers milliseconds for both. */
const temporalColumn = (field: Field, type: "date" | "datetime", vector: Vector): ContinuousColumn => {
  const values = new Float64Array(vector.length)
  const missing = new Uint8Array(vector.length)
  for (let row = 0; row < vector.length; row++) {
    const value: unknown = vector.get(row)
    if (value === null || value === undefined) missing[row] = 1
    else values[row] = type === "date" ? Math.round(Number(value) / millisecondsPerDay) : Number(value)
  }
  return {
    kind: "continuous",
    name: field.name,
    type,
    values,
    ...withMissing(missing, vector.nullCount),
    sourceFormat: field.metadata.get("synth.sourceFormat") ?? null
  }
}

const withMissing = (missing: Uint8Array, nullCount: number) => ({ missing: nullCount > 0 ? missing : null })

const booleanColumn = (field: Field, vector: Vector): CategoricalColumn => {
  const codes = new Int32Array(vector.length)
  for (let row = 0; row < vector.length; row++) {
    const value: unknown = vector.get(row)
    codes[row] = value === null || value === undefined ? -1 : value ? 1 : 0
  }
  return { kind: "categorical", name: field.name, type: "boolean", categories: ["false", "true"], codes }
}

/** Strings dictionary-encoded in order of first appearance. */
const stringColumn = (field: Field, vector: Vector): CategoricalColumn => {
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
  return { kind: "categorical", name: field.name, type: "string", categories, codes }
}

const readColumn = (field: Field, vector: Vector): Result.Result<SynthColumn, UnsupportedColumn> => {
  const declared = field.metadata.get("synth.type")
  const type = columnTypes.find((candidate) => candidate === declared)
  if (type === undefined || !storageFits(type, field.type)) {
    return Result.fail(
      new UnsupportedColumn({
        column: field.name,
        message: `Column ${field.name} is stored as ${String(field.type)} with synth.type ${declared ?? "(none)"}, ` +
          "which is not a column of a normalised table."
      })
    )
  }
  switch (type) {
    case "integer":
    case "float":
      return Result.succeed(numericColumn(field, type, vector))
    case "date":
    case "datetime":
      return Result.succeed(temporalColumn(field, type, vector))
    case "boolean":
      return Result.succeed(booleanColumn(field, vector))
    case "string":
      return Result.succeed(stringColumn(field, vector))
  }
}

/** The schema's metadata and each field's but its type: how the source wrote the table. */
const formOf = (table: Table): TableForm => ({
  table: Object.fromEntries(table.schema.metadata),
  columns: Object.fromEntries(
    table.schema.fields.map((field) => [field.name, Object.fromEntries([...field.metadata].filter(([key]) => key !== "synth.type"))])
  )
})

/** A normalised table as @synth/tabular writes it (types in the `synth.type` field metadata) → SynthTable. */
export const synthTableFromArrow = (table: Table): Result.Result<SynthTable, UnsupportedColumn> =>
  Result.map(
    Result.all(table.schema.fields.map((field, index) => readColumn(field, table.getChildAt(index)!))),
    (columns): SynthTable => ({ rowCount: table.numRows, columns, form: formOf(table) })
  )
