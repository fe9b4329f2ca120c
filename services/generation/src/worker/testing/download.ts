import { ingestTable, readTable, renderTable } from "@synth/tabular"
import type { Table } from "apache-arrow"
import { Effect, Stream } from "effect"

/** Test helpers: a CSV ingested as an upload is, and an output table rendered as its download is. */

export const ingest = (text: string): Promise<Table> =>
  Effect.runPromise(Effect.flatMap(ingestTable(() => Stream.make(new TextEncoder().encode(text))), ({ table }) => readTable(table)))

export const render = async (ipc: Uint8Array, format: "csv" | "json"): Promise<string> => {
  const chunks = await Effect.runPromise(Stream.runCollect(renderTable(Stream.make(ipc), { format, values: "source" })))
  return Buffer.concat(chunks).toString("utf8")
}

/** The cells of a rendered CSV (CRLF lines; quoted cells may hold commas). */
export const parseCsv = (text: string): Array<Array<string>> =>
  text.trimEnd().split("\r\n").map((line) => {
    const cells: Array<string> = []
    for (let at = 0; at <= line.length;) {
      if (line[at] === '"') {
        const close = line.indexOf('",', at + 1) === -1 ? line.length - 1 : line.indexOf('",', at + 1)
        cells.push(line.slice(at + 1, close).replaceAll('""', '"'))
        at = close + 2
      } else {
        const comma = line.indexOf(",", at)
        const end = comma === -1 ? line.length : comma
        cells.push(line.slice(at, end))
        at = end + 1
      }
    }
    return cells
  })
