export {
  booleanCodesOf,
  type ColumnNumbers,
  dictionaryEncode,
  type DictionaryCodes,
  epochMillisOf,
  numbersOf,
  withNaNForMissing
} from "./arrow/columnValues.ts"
export { columnTypeKey, columnTypeOf, sourceFormatKey, storageTypeOf } from "./arrow/tableSchema.ts"
export { readTable } from "./arrow/readTable.ts"
export { formKeys } from "./form/formKeys.ts"
export type { ValueForm } from "./render/cellWriters.ts"
export { type OutputFormat, outputFormats, renderTable, type RenderOptions, tableToCsv } from "./render/renderTable.ts"
export type { ColumnSchema, ColumnType } from "./infer/ColumnSchema.ts"
export type { IngestSummary } from "./infer/IngestSummary.ts"
export { ingestTable } from "./ingestTable.ts"
export type { Cell, FileFormat, RecordStream, TextEncoding } from "./records/RecordStream.ts"
export { TabularError, type TabularErrorReason } from "./TabularError.ts"
