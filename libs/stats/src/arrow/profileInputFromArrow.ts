import { DataType, type Field, Precision, type Table, type Vector } from "apache-arrow"
import { ColumnValues, columnTypeKey, columnTypeOf } from "@synth/tabular"
import { Data as EffectData, Result } from "effect"
import type { CategoricalColumn, ColumnType, ProfileColumn, ProfileInput } from "../ProfileInput.ts"

/** A field this adapter cannot read as the logical type it carries (or as any type, without `synth.type`). */
export class UnsupportedArrowField extends EffectData.TaggedError("UnsupportedArrowField")<{
  readonly field: string
  readonly arrowType: string
  readonly logicalType: string | undefined
  readonly message: string
}> {}

/** The logical type @synth/tabular wrote in `synth.type`, else the one the storage type implies. */
const logicalType = (field: Field): ColumnType | undefined => {
  if (field.metadata.has(columnTypeKey)) return columnTypeOf(field)
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

const categoricalColumn = (
  name: string,
  type: "boolean" | "string",
  { categories, codes }: ColumnValues.DictionaryCodes
): CategoricalColumn => ({ name, type, codes, categories })

const { withNaNForMissing } = ColumnValues

const readColumn = (field: Field, vector: Vector): Result.Result<ProfileColumn, UnsupportedArrowField> => {
  const logical = logicalType(field)
  if (logical === undefined || !storageFits(logical, field.type)) {
    const declared = field.metadata.get(columnTypeKey)
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
      return Result.succeed({ name: field.name, type: logical, values: withNaNForMissing(ColumnValues.numbersOf(vector)) })
    case "date":
    case "datetime":
      return Result.succeed({ name: field.name, type: logical, values: withNaNForMissing(ColumnValues.epochMillisOf(vector)) })
    case "boolean":
      return Result.succeed(categoricalColumn(field.name, "boolean", ColumnValues.booleanCodesOf(vector)))
    case "string":
      return Result.succeed(categoricalColumn(field.name, "string", ColumnValues.dictionaryEncode(vector)))
  }
}

/** The profiler's input from a normalised table as @synth/tabular writes it (see ProfileInput for the shapes). */
export const profileInputFromArrow = (table: Table): Result.Result<ProfileInput, UnsupportedArrowField> =>
  Result.map(
    Result.all(table.schema.fields.map((field, index) => readColumn(field, table.getChildAt(index)!))),
    (columns): ProfileInput => ({ rowCount: table.numRows, columns })
  )
