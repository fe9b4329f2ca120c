import type { RecordBatch } from "apache-arrow"
import { Effect, Stream } from "effect"
import { readBatches } from "../arrow/readBatches.ts"
import { fromAsyncBytes, toAsyncIterable } from "../effectBridge.ts"
import type { TabularError } from "../TabularError.ts"
import { csvField } from "./csvField.ts"
import { fieldRenderer } from "./fieldRenderer.ts"

const lineBreak = "\r\n"
const encoder = new TextEncoder()

/** The normalised table back as UTF-8 CSV (header row; missing = empty field; dates ISO 8601; RFC 4180 quoting), streamed batch by batch. */
export const tableToCsv = <E>(ipc: Stream.Stream<Uint8Array, E>): Stream.Stream<Uint8Array, TabularError | E> =>
  Stream.unwrap(
    Effect.map(Effect.runtime<never>(), (runtime) =>
      fromAsyncBytes<E>(async function* () {
        const { schema, batches } = await readBatches(toAsyncIterable(ipc, runtime))
        yield encoder.encode(schema.fields.map((field) => csvField(field.name)).join(",") + lineBreak)
        for await (const batch of batches) yield encoder.encode(batchToCsv(batch))
      })
    )
  )

const batchToCsv = (batch: RecordBatch): string => {
  const renderers = batch.schema.fields.map((field, column) => fieldRenderer(field, batch.getChildAt(column)!.data[0]!))
  const lines: Array<string> = new Array(batch.numRows)
  for (let row = 0; row < batch.numRows; row++) {
    const line = renderers.map((render) => render(row)).join(",")
    // A row that is one missing value would be a blank line, which readers skip: write it as an empty quoted field.
    lines[row] = line.length === 0 ? '""' : line
  }
  return lines.join(lineBreak) + lineBreak
}
