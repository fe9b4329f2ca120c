import { type Data, DataType, type Field, type RecordBatch, type Schema } from "apache-arrow"
import { ByteWriter, type ColumnSource, ParquetWriter, type SchemaElement, type Writer } from "hyparquet-writer"
import { columnTypeOf } from "../arrow/tableSchema.ts"

/**
 * A Parquet file of a normalised table, written with hyparquet-writer one row group per Arrow record batch, so that
 * memory holds one batch and its encoded pages, whatever the table's size. The logical types are kept: integers
 * INT32 (INT64 where the table stores them as Float64 because they do not fit), floats DOUBLE, booleans BOOLEAN,
 * dates DATE, datetimes TIMESTAMP(MILLIS, UTC), strings UTF8; every column optional (missing values are nulls).
 */
export class ParquetFile {
  readonly #writer: ByteWriter & Writer = new ByteWriter()
  readonly #file: ParquetWriter
  readonly #chunks: Array<Uint8Array> = []

  constructor(schema: Schema) {
    // The bytes of each row group are handed out as soon as it is written (flush), not kept for the whole file.
    this.#writer.flush = () => this.#takeBytes()
    this.#file = new ParquetWriter({
      writer: this.#writer,
      schema: [{ name: "root", num_children: schema.fields.length }, ...schema.fields.map(schemaElement)],
      createdBy: "synth-data-service"
    })
  }

  /** The bytes written so far (the file's magic number first), then those of each row group. */
  take(): Array<Uint8Array> {
    this.#takeBytes()
    return this.#chunks.splice(0)
  }

  write(batch: RecordBatch): void {
    if (batch.numRows === 0) return
    const columnData = batch.schema.fields.map((field, column): ColumnSource => ({
      name: field.name,
      data: columnValues(field, batch.getChildAt(column)!.data[0]!)
    }))
    void this.#file.write({ columnData, rowGroupSize: batch.numRows })
  }

  finish(): void {
    void this.#file.finish()
  }

  #takeBytes(): void {
    if (this.#writer.index === 0) return
    this.#chunks.push(new Uint8Array(this.#writer.buffer, 0, this.#writer.index).slice())
    this.#writer.index = 0
  }
}

const schemaElement = (field: Field): SchemaElement => {
  const optional = { name: field.name, repetition_type: "OPTIONAL" } as const
  switch (columnTypeOf(field)) {
    case "integer":
      return DataType.isInt(field.type) ? { ...optional, type: "INT32" } : { ...optional, type: "INT64" }
    case "float":
      return { ...optional, type: "DOUBLE" }
    case "boolean":
      return { ...optional, type: "BOOLEAN" }
    case "date":
      return { ...optional, type: "INT32", converted_type: "DATE", logical_type: { type: "DATE" } }
    case "datetime":
      return {
        ...optional,
        type: "INT64",
        converted_type: "TIMESTAMP_MILLIS",
        logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" }
      }
    default:
      return { ...optional, type: "BYTE_ARRAY", converted_type: "UTF8", logical_type: { type: "STRING" } }
  }
}

const decoder = new TextDecoder()

/** One column of a batch as hyparquet-writer takes it: typed arrays where nothing is missing, else arrays with nulls. */
const columnValues = (field: Field, data: Data): ColumnSource["data"] => {
  const at = data.offset
  const length = data.length
  const present = (index: number): boolean => data.nullCount === 0 || data.getValid(index)
  const numbers = data.values as ArrayLike<number | bigint>
  switch (columnTypeOf(field)) {
    case "integer":
      if (!DataType.isInt(field.type)) {
        return Array.from({ length }, (_, index) => (present(index) ? BigInt(numbers[at + index]!) : null))
      }
      return data.nullCount === 0
        ? (data.values as Int32Array).slice(at, at + length)
        : Array.from({ length }, (_, index) => (present(index) ? Number(numbers[at + index]) : null))
    case "float":
    case "date":
      return data.nullCount === 0 && columnTypeOf(field) === "float"
        ? (data.values as Float64Array).slice(at, at + length)
        : Array.from({ length }, (_, index) => (present(index) ? Number(numbers[at + index]) : null))
    case "datetime":
      return Array.from({ length }, (_, index) => (present(index) ? BigInt(numbers[at + index]!) : null))
    case "boolean": {
      const bits = data.values as Uint8Array
      return Array.from({ length }, (_, index) => {
        const position = at + index
        return present(index) ? (bits[position >> 3]! & (1 << (position & 7))) !== 0 : null
      })
    }
    default: {
      const offsets = data.valueOffsets as Int32Array
      const bytes = data.values as Uint8Array
      return Array.from({ length }, (_, index) =>
        present(index) ? decoder.decode(bytes.subarray(offsets[at + index], offsets[at + index + 1])) : null)
    }
  }
}
