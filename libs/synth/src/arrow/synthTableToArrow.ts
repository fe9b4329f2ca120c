import { type Data, Field, Int32, makeBuilder, makeData, RecordBatch, Schema, Struct, Table, tableToIPC } from "apache-arrow"
import { columnTypeKey, sourceFormatKey, storageTypeOf } from "@synth/tabular"
import type { SynthColumn, SynthTable, TableForm } from "../table.ts"

/** Rows per record batch: readers (the CSV download) work batch by batch, so this bounds their working set. */
const batchRows = 65_536
const millisecondsPerDay = 86_400_000
const int32Max = 2 ** 31 - 1

/**
 * The Arrow field a column is written as, with the metadata @synth/tabular writes: the source's form of the column
 * (its field metadata, when the table carries it), `synth.type`, and `synth.sourceFormat` for dates and datetimes, so
 * a synthetic table reads, profiles and downloads exactly as the ingested one it imitates. Integers are Int32 when
 * every value fits, as ingestion stores them, else Float64.
 */
const fieldOf = (column: SynthColumn, form: TableForm | undefined): Field => {
  const metadata = new Map<string, string>(Object.entries(form?.columns[column.name] ?? {}))
  metadata.set(columnTypeKey, column.type)
  if (column.kind === "continuous" && column.sourceFormat !== null) metadata.set(sourceFormatKey, column.sourceFormat)
  return new Field(column.name, storageOf(column), true, metadata)
}

const fitsInt32 = (values: Float64Array) => values.every((value) => Math.abs(value) <= int32Max)

const storageOf = (column: SynthColumn) =>
  storageTypeOf(
    column.type,
    column.type === "integer" && column.kind === "continuous" && fitsInt32(column.values) ? "int32" : "float64"
  )

const isMissing = (column: SynthColumn, row: number) =>
  column.kind === "continuous" ? column.missing !== null && column.missing[row] === 1 : column.codes[row]! < 0

/** Validity bitmap of rows [from, to), or undefined when all of them are present. */
const validityOf = (column: SynthColumn, from: number, to: number): { bitmap: Uint8Array | undefined; nulls: number } => {
  let nulls = 0
  const bitmap = new Uint8Array(Math.ceil((to - from) / 8))
  for (let row = from; row < to; row++) {
    if (isMissing(column, row)) nulls++
    else bitmap[(row - from) >> 3]! |= 1 << ((row - from) & 7)
  }
  return { bitmap: nulls === 0 ? undefined : bitmap, nulls }
}

/** Plain numbers go straight into typed arrays; the other types through apache-arrow's builders. */
const sliceData = (column: SynthColumn, field: Field, from: number, to: number): Data => {
  const length = to - from
  if (column.kind === "continuous" && (column.type === "integer" || column.type === "float")) {
    const { bitmap, nulls } = validityOf(column, from, to)
    const slice = column.values.subarray(from, to)
    const data = field.type instanceof Int32 ? Int32Array.from(slice) : Float64Array.from(slice)
    return makeData({ type: field.type, length, nullCount: nulls, nullBitmap: bitmap, data })
  }
  const builder = makeBuilder({ type: field.type, nullValues: [null] })
  for (let row = from; row < to; row++) builder.append(valueAt(column, row))
  return builder.finish().flush()
}

const valueAt = (column: SynthColumn, row: number): unknown => {
  if (isMissing(column, row)) return null
  if (column.kind === "categorical") {
    const label = column.categories[column.codes[row]!]!
    return column.type === "boolean" ? label === "true" : label
  }
  const value = column.values[row]!
  return column.type === "date" ? value * millisecondsPerDay : value
}

/** The IPC stream bytes of synthTableToArrow (what the blob store keeps as a dataset's `table`). */
export const synthTableToIpc = (table: SynthTable): Uint8Array => tableToIPC(synthTableToArrow(table), "stream")

/** A SynthTable as a normalised Arrow table (the inverse of synthTableFromArrow), in batches of 65,536 rows. */
export const synthTableToArrow = (table: SynthTable): Table => {
  const fields = table.columns.map((column) => fieldOf(column, table.form))
  const schema = new Schema(fields, new Map(Object.entries(table.form?.table ?? {})))
  const batches: Array<RecordBatch> = []
  // An empty table still gets one (empty) batch, so readers see its schema and zero rows.
  for (let from = 0; from === 0 || from < table.rowCount; from += batchRows) {
    const to = Math.min(table.rowCount, from + batchRows)
    const children = table.columns.map((column, index) => sliceData(column, fields[index]!, from, to))
    const data = makeData({ type: new Struct(fields), length: to - from, nullCount: 0, children })
    batches.push(new RecordBatch(schema, data))
  }
  return new Table(schema, batches)
}
