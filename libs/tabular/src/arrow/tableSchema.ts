import { Bool, type DataType, DateDay, Field, Float64, Int32, Schema, TimestampMillisecond, Utf8 } from "apache-arrow"
import type { ColumnPlan } from "../infer/ColumnPlan.ts"
import type { ColumnType } from "../infer/ColumnSchema.ts"
import { delimiterKey, encodingKey, formatKey, formKeys } from "../form/formKeys.ts"
import type { IngestSummary } from "../infer/IngestSummary.ts"
import type { ColumnShape } from "../records/json/FlatColumns.ts"

/** Field metadata keys: Arrow's physical type does not say everything (an integer column may be stored as Float64). */
export const columnTypeKey = "synth.type"
export const sourceFormatKey = "synth.sourceFormat"

const columnTypes: ReadonlySet<string> = new Set<ColumnType>(["integer", "float", "boolean", "date", "datetime", "string"])

/** The logical type of a field of a normalised table; undefined for a field this library did not write. */
export const columnTypeOf = (field: Field): ColumnType | undefined => {
  const type = field.metadata.get(columnTypeKey)
  return type !== undefined && columnTypes.has(type) ? (type as ColumnType) : undefined
}

/**
 * The Arrow type a normalised table stores a column of `type` in. Integers are Int32 when every value fits, else
 * Float64 (`integers` says which); dates are days, datetimes UTC milliseconds.
 */
export const storageTypeOf = (type: ColumnType, integers: "int32" | "float64"): DataType => {
  switch (type) {
    case "boolean":
      return new Bool()
    case "integer":
      return integers === "int32" ? new Int32() : new Float64()
    case "float":
      return new Float64()
    case "date":
      return new DateDay()
    case "datetime":
      return new TimestampMillisecond("UTC")
    case "string":
      return new Utf8()
  }
}

const arrowTypeOf = ({ conversion }: ColumnPlan): DataType =>
  storageTypeOf(conversion.type, conversion.type === "integer" ? conversion.storage : "float64")

export const tableSchema = (
  summary: IngestSummary,
  plans: ReadonlyArray<ColumnPlan>,
  shapes: ReadonlyArray<ColumnShape> = []
): Schema => {
  const fields = plans.map((plan, index) => {
    const metadata = new Map<string, string>([[columnTypeKey, plan.schema.type]])
    if (plan.schema.sourceFormat !== null) metadata.set(sourceFormatKey, plan.schema.sourceFormat)
    for (const [key, value] of [...plan.form, ...jsonShapeMetadata(shapes[index])]) metadata.set(key, value)
    return new Field(plan.schema.name, arrowTypeOf(plan), true, metadata)
  })
  const metadata = new Map<string, string>([
    [formatKey, summary.format],
    [encodingKey, summary.encoding]
  ])
  if (summary.delimiter !== null) metadata.set(delimiterKey, summary.delimiter)
  return new Schema(fields, metadata)
}

/** Where a JSON column came from: its keys when a nested object was flattened, and whether it held arrays only. */
const jsonShapeMetadata = (shape: ColumnShape | undefined): Array<readonly [string, string]> => {
  if (shape === undefined) return []
  const entries: Array<readonly [string, string]> = []
  if (shape.path.length > 1) entries.push([formKeys.path, JSON.stringify(shape.path)])
  if (shape.arrays > 0 && shape.others === 0) entries.push([formKeys.jsonArray, "true"])
  return entries
}
