import { Effect, Stream } from "effect"
import { readFileSync } from "node:fs"
import { ingestTable } from "../src/ingestTable.ts"
import { isMissingToken, trimCell } from "../src/normalise/cleanText.ts"
import { openRecords } from "../src/records/openRecords.ts"
import type { Cell } from "../src/records/RecordStream.ts"
import { renderTable, type RenderOptions } from "../src/render/renderTable.ts"

export const fixture = (path: string): Uint8Array =>
  new Uint8Array(readFileSync(new URL(`../../../test/fixtures/${path}`, import.meta.url)))

/** The chunks' bytes joined in order. */
export const concat = (chunks: ReadonlyArray<Uint8Array>): Uint8Array => new Uint8Array(Buffer.concat(chunks))

/** The stored table (Arrow IPC stream bytes) of an upload of `bytes`. */
export const ingestToIpc = (bytes: Uint8Array): Promise<Uint8Array> =>
  Effect.runPromise(
    Effect.flatMap(ingestTable(() => Stream.make(bytes)), ({ table }) => Effect.map(Stream.runCollect(table), concat))
  )

/** A download of the stored table. */
export const download = (ipc: Uint8Array, options: RenderOptions): Promise<Uint8Array> =>
  Effect.runPromise(Effect.map(Stream.runCollect(renderTable(Stream.make(ipc), options)), concat))

export const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes)

/** Header and cells of a CSV as the upload's parser reads them (any delimiter), without cleaning. */
export const csvCells = async (bytes: Uint8Array): Promise<{ header: ReadonlyArray<string>; rows: Array<ReadonlyArray<Cell>> }> => {
  const records = await openRecords(async function*() {
    yield bytes
  })
  const rows: Array<ReadonlyArray<Cell>> = []
  for await (const batch of records.batches) rows.push(...batch)
  return { header: records.columns, rows }
}

/** A cell after the documented cleaning of an upload: trimmed, and empty when it is a missing-value token. */
export const cleaned = (cell: Cell | undefined): string => {
  const text = trimCell(String(cell ?? ""))
  return isMissingToken(text) ? "" : text
}
