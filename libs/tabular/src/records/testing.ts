import { openRecords } from "./openRecords.ts"
import type { Cell, RecordStream } from "./RecordStream.ts"

/** Serves `bytes` in chunks of `chunkSize`, like a blob store read; a fresh iterable per call. */
export const chunked = (bytes: Uint8Array, chunkSize = 64 * 1024) => () =>
  (async function*() {
    for (let i = 0; i < bytes.length; i += chunkSize) yield bytes.subarray(i, i + chunkSize)
  })()

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

export interface ReadFile extends Pick<RecordStream, "format" | "encoding" | "delimiter" | "columns"> {
  readonly rows: ReadonlyArray<ReadonlyArray<Cell>>
}

/** Opens and reads the whole file, as the two passes of an upload do. */
export const readAll = async (bytes: Uint8Array | string, chunkSize?: number): Promise<ReadFile> => {
  const records = await openRecords(chunked(typeof bytes === "string" ? utf8(bytes) : bytes, chunkSize))
  const rows: Array<ReadonlyArray<Cell>> = []
  for await (const batch of records.batches) rows.push(...batch)
  return {
    format: records.format,
    encoding: records.encoding,
    delimiter: records.delimiter,
    columns: [...records.columns],
    rows
  }
}

/** The TabularError a read fails with, as `{ reason, message }`. */
export const failure = (bytes: Uint8Array | string, chunkSize?: number): Promise<unknown> =>
  readAll(bytes, chunkSize).then(
    () => {
      throw new Error("expected the read to fail")
    },
    (error: { reason: string; message: string }) => ({ reason: error.reason, message: error.message })
  )
