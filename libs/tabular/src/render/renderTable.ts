import type { RecordBatch, Schema } from "apache-arrow"
import { Effect, Stream } from "effect"
import { readBatches } from "../arrow/readBatches.ts"
import { fromAsyncBytes, toAsyncIterable } from "../effectBridge.ts"
import type { TabularError } from "../TabularError.ts"
import type { ValueForm } from "./cellWriters.ts"
import { CsvText } from "./csvText.ts"
import { JsonRows } from "./jsonText.ts"
import { ParquetFile } from "./parquetFile.ts"

export type OutputFormat = "csv" | "json" | "ndjson" | "parquet"

export interface RenderOptions {
  readonly format: OutputFormat
  readonly values: ValueForm
}

/** What a download of each format is served as. */
export const outputFormats: Readonly<Record<OutputFormat, { readonly contentType: string; readonly extension: string }>> = {
  csv: { contentType: "text/csv; charset=utf-8", extension: ".csv" },
  json: { contentType: "application/json", extension: ".json" },
  ndjson: { contentType: "application/x-ndjson", extension: ".ndjson" },
  parquet: { contentType: "application/vnd.apache.parquet", extension: ".parquet" }
}

const encoder = new TextEncoder()

/** The writer of one format: bytes for the start, each batch and the end. */
interface FileWriter {
  start(): Array<Uint8Array>
  batch(batch: RecordBatch): Array<Uint8Array>
  end(): Array<Uint8Array>
}

const csvWriter = (schema: Schema, values: ValueForm): FileWriter => {
  const csv = new CsvText(schema, values)
  return {
    start: () => [encoder.encode(csv.header())],
    batch: (batch) => [encoder.encode(csv.batch(batch))],
    end: () => []
  }
}

/** A JSON array with one object per line, or NDJSON: one object per line. */
const jsonWriter = (schema: Schema, values: ValueForm, array: boolean): FileWriter => {
  const json = new JsonRows(schema, values)
  let first = true
  return {
    start: () => (array ? [encoder.encode("[")] : []),
    batch: (batch) => {
      const rows = json.rows(batch)
      if (rows.length === 0) return []
      const separator = array ? ",\n" : "\n"
      const text = (array ? (first ? "\n" : ",\n") : "") + rows.join(separator) + (array ? "" : "\n")
      first = false
      return [encoder.encode(text)]
    },
    end: () => (array ? [encoder.encode(first ? "]\n" : "\n]\n")] : [])
  }
}

const parquetWriter = (schema: Schema): FileWriter => {
  const file = new ParquetFile(schema)
  return {
    start: () => file.take(),
    batch: (batch) => {
      file.write(batch)
      return file.take()
    },
    end: () => {
      file.finish()
      return file.take()
    }
  }
}

const writerFor = (schema: Schema, options: RenderOptions): FileWriter => {
  switch (options.format) {
    case "csv":
      return csvWriter(schema, options.values)
    case "json":
      return jsonWriter(schema, options.values, true)
    case "ndjson":
      return jsonWriter(schema, options.values, false)
    case "parquet":
      return parquetWriter(schema)
  }
}

/**
 * A stored table (Arrow IPC stream) as a file of `options.format`, streamed batch by batch: memory holds one record
 * batch and its text (or row group), whatever the size of the table.
 */
export const renderTable = <E>(
  ipc: Stream.Stream<Uint8Array, E>,
  options: RenderOptions
): Stream.Stream<Uint8Array, TabularError | E> =>
  Stream.unwrap(
    Effect.map(Effect.context(), (runtime) =>
      fromAsyncBytes<E>(async function*() {
        const { batches, schema } = await readBatches(toAsyncIterable(ipc, runtime))
        const writer = writerFor(schema, options)
        yield* writer.start()
        for await (const batch of batches) yield* writer.batch(batch)
        yield* writer.end()
      })
    )
  )

/** The table as CSV: the normalised form unless told otherwise (what profiling, benchmarks and tests compare). */
export const tableToCsv = <E>(
  ipc: Stream.Stream<Uint8Array, E>,
  values: ValueForm = "normalised"
): Stream.Stream<Uint8Array, TabularError | E> => renderTable(ipc, { format: "csv", values })
