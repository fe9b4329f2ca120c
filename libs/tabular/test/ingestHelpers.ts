import type { Table } from "apache-arrow"
import { Effect, Stream } from "effect"
import { readTable } from "../src/arrow/readTable.ts"
import type { IngestSummary } from "../src/infer/IngestSummary.ts"
import { ingestTable } from "../src/ingestTable.ts"
import { ingestWith, type OpenRecords } from "../src/ingestWith.ts"
import type { Cell, RecordStream } from "../src/records/RecordStream.ts"

/** A stand-in for openRecords that serves fixed CSV-like rows (batches of `batchSize`), ignoring the bytes. */
export const fixedRecords = (
  columns: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  batchSize = 1000
): OpenRecords =>
async () => {
  const stream: RecordStream = {
    format: "csv",
    encoding: "utf-8",
    delimiter: ",",
    columns,
    batches: (async function*() {
      for (let from = 0; from < rows.length; from += batchSize) yield rows.slice(from, from + batchSize)
    })()
  }
  return stream
}

export interface Ingested {
  readonly summary: IngestSummary
  readonly table: Table
  /** Each column's values as plain JS, dates and datetimes as ISO strings. */
  readonly values: Record<string, ReadonlyArray<unknown>>
}

const noBytes = () => Stream.empty

export const ingestRecords = (
  columns: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<Cell>>,
  batchRows = 32_768
): Effect.Effect<Ingested, unknown> =>
  ingestWith(fixedRecords(columns, rows), { rows: batchRows, stringBytes: 1 << 30 })(noBytes).pipe(
    Effect.flatMap(({ summary, table }) =>
      Effect.map(readTable(table), (loaded) => ({ summary, table: loaded, values: plainValues(loaded) }))
    )
  )

export const ingestBytes = (bytes: Uint8Array, chunkSize = 64 * 1024): Effect.Effect<Ingested, unknown> =>
  ingestTable(() => Stream.fromIterable(chunks(bytes, chunkSize))).pipe(
    Effect.flatMap(({ summary, table }) =>
      Effect.map(readTable(table), (loaded) => ({ summary, table: loaded, values: plainValues(loaded) }))
    )
  )

const chunks = function*(bytes: Uint8Array, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

export const plainValues = (table: Table): Record<string, ReadonlyArray<unknown>> =>
  Object.fromEntries(
    table.schema.fields.map((field, column) => {
      const vector = table.getChildAt(column)!
      const type = field.metadata.get("synth.type")
      const values = Array.from({ length: table.numRows }, (_, row) => {
        const value: unknown = vector.get(row)
        if (value === null || value === undefined) return null
        if (type === "date") return new Date(Number(value)).toISOString().slice(0, 10)
        if (type === "datetime") return new Date(Number(value)).toISOString()
        return value
      })
      return [field.name, values]
    })
  )
