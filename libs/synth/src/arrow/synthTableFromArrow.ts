import { DataType, type Field, type Table, type Vector } from "apache-arrow"
import { ColumnValues, columnTypeKey, columnTypeOf, sourceFormatKey } from "@synth/tabular"
import { Data, Result } from "effect"
import type { CategoricalColumn, ColumnType, ContinuousColumn, SynthColumn, SynthTable, TableForm } from "../table.ts"

/** A field that is not a column of a normalised table (no `synth.type`, or a storage type that cannot hold it). */
export class UnsupportedColumn extends Data.TaggedError("UnsupportedColumn")<{
  readonly column: string
  readonly message: string
}> {}

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

const numericColumn = (field: Field, type: "integer" | "float", vector: Vector): ContinuousColumn => ({
  kind: "continuous",
  name: field.name,
  type,
  ...ColumnValues.numbersOf(vector),
  sourceFormat: null
})

/** Dates as days and datetimes as milliseconds since the epoch. */
const temporalColumn = (field: Field, type: "date" | "datetime", vector: Vector): ContinuousColumn => {
  const { missing, values } = ColumnValues.epochMillisOf(vector)
  return {
    kind: "continuous",
    name: field.name,
    type,
    values: type === "date" ? values.map((millis) => Math.round(millis / millisecondsPerDay)) : values,
    missing,
    sourceFormat: field.metadata.get(sourceFormatKey) ?? null
  }
}

const categoricalColumn = (
  field: Field,
  type: "boolean" | "string",
  { categories, codes }: ColumnValues.DictionaryCodes
): CategoricalColumn => ({ kind: "categorical", name: field.name, type, categories, codes })

const readColumn = (field: Field, vector: Vector): Result.Result<SynthColumn, UnsupportedColumn> => {
  const declared = field.metadata.get(columnTypeKey)
  const type = columnTypeOf(field)
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
      return Result.succeed(categoricalColumn(field, "boolean", ColumnValues.booleanCodesOf(vector)))
    case "string":
      return Result.succeed(categoricalColumn(field, "string", ColumnValues.dictionaryEncode(vector)))
  }
}

/** The schema's metadata and each field's but its type: how the source wrote the table. */
const formOf = (table: Table): TableForm => ({
  table: Object.fromEntries(table.schema.metadata),
  columns: Object.fromEntries(
    table.schema.fields.map((field) => [field.name, Object.fromEntries([...field.metadata].filter(([key]) => key !== columnTypeKey))])
  )
})

/** A normalised table as @synth/tabular writes it (types in the `synth.type` field metadata) → SynthTable. */
export const synthTableFromArrow = (table: Table): Result.Result<SynthTable, UnsupportedColumn> =>
  Result.map(
    Result.all(table.schema.fields.map((field, index) => readColumn(field, table.getChildAt(index)!))),
    (columns): SynthTable => ({ rowCount: table.numRows, columns, form: formOf(table) })
  )
