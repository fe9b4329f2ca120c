import { ingestTable, readTable, tableToCsv } from "@synth/tabular"
import { tableFromIPC, tableToIPC } from "apache-arrow"
import { Chunk, Effect, Either, Stream } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import type { SynthTable } from "../table.ts"
import { synthTableFromArrow } from "./synthTableFromArrow.ts"
import { synthTableToArrow, synthTableToIpc } from "./synthTableToArrow.ts"

const ingestText = (text: string) =>
  Effect.runPromise(
    Effect.flatMap(ingestTable(() => Stream.make(new TextEncoder().encode(text))), ({ table }) => readTable(table))
  )

const csvOf = async (ipc: Uint8Array) => {
  const chunks = await Effect.runPromise(Stream.runCollect(tableToCsv(Stream.make(ipc))))
  return Buffer.concat(Chunk.toArray(chunks)).toString("utf8")
}

const mixed = [
  "id,price,when,stamp,flag,label,missing_float",
  "1,1.5,2024-01-31,2024-01-31T10:00:00Z,true,a,0.25",
  "2,,2023-12-01,,false,,",
  "3,-7.25,,2022-06-30T23:59:59.5Z,,b \"quoted\",1e-3",
  "2147483648,0,1999-02-28,2000-01-01T00:00:00Z,true,a,"
].join("\n")

describe("synthTableFromArrow / synthTableToArrow", () => {
  it("reads every column type with its missing values", async () => {
    const table = Either.getOrThrow(synthTableFromArrow(await ingestText(mixed)))
    expect(table.rowCount).toBe(4)
    expect(table.columns.map((column) => `${column.name}:${column.type}:${column.kind}`)).toEqual([
      "id:integer:continuous",
      "price:float:continuous",
      "when:date:continuous",
      "stamp:datetime:continuous",
      "flag:boolean:categorical",
      "label:string:categorical",
      "missing_float:float:continuous"
    ])
    const [id, price, when, , flag, label] = table.columns
    expect(id?.kind === "continuous" && Array.from(id.values)).toEqual([1, 2, 3, 2147483648])
    expect(price?.kind === "continuous" && Array.from(price.missing ?? [])).toEqual([0, 1, 0, 0])
    expect(when?.kind === "continuous" && when.values[0]).toBe(Date.UTC(2024, 0, 31) / 86_400_000)
    expect(flag?.kind === "categorical" && Array.from(flag.codes)).toEqual([1, 0, -1, 1])
    expect(label?.kind === "categorical" && label.categories).toEqual(["a", 'b "quoted"'])
  })

  it("writes back a table that downloads as the same CSV (diamonds and a mixed table)", async () => {
    const diamonds = readFileSync(fileURLToPath(new URL("../../../../test/fixtures/datasets/diamonds.csv", import.meta.url)), "utf8")
    for (const text of [mixed, diamonds]) {
      const arrow = await ingestText(text)
      // The ingested table as IPC is what the blob store holds for an uploaded dataset.
      const original = await csvOf(tableToIPC(arrow, "stream"))
      const roundTripped = await csvOf(synthTableToIpc(Either.getOrThrow(synthTableFromArrow(arrow))))
      expect(roundTripped).toBe(original)
    }
  })

  it("keeps field metadata, splits into batches and writes an empty table with its schema", () => {
    const rows = 70_000
    const table: SynthTable = {
      rowCount: rows,
      columns: [
        { kind: "continuous", name: "d", type: "date", values: new Float64Array(rows).fill(19_000), missing: null, sourceFormat: "DD/MM/YYYY" },
        { kind: "categorical", name: "s", type: "string", categories: ["x"], codes: new Int32Array(rows) }
      ]
    }
    const arrow = synthTableToArrow(table)
    expect(arrow.batches.length).toBe(2)
    expect(arrow.schema.fields[0]!.metadata.get("synth.sourceFormat")).toBe("DD/MM/YYYY")
    expect(arrow.schema.fields[0]!.metadata.get("synth.type")).toBe("date")
    const empty = tableFromIPC(synthTableToIpc({ rowCount: 0, columns: table.columns.map((column) => column.kind === "categorical" ? { ...column, codes: new Int32Array(0) } : { ...column, values: new Float64Array(0) }) }))
    expect(empty.numRows).toBe(0)
    expect(empty.schema.fields.map((field) => field.name)).toEqual(["d", "s"])
  })
})
