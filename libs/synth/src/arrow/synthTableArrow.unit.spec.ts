import { ingestTable, readTable, tableToCsv } from "@synth/tabular"
import { tableFromIPC, tableToIPC } from "apache-arrow"
import { Effect, Result, Stream } from "effect"
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

const csvOf = async (ipc: Uint8Array, values: "source" | "normalised" = "normalised") => {
  const chunks = await Effect.runPromise(Stream.runCollect(tableToCsv(Stream.make(ipc), values)))
  return Buffer.concat(chunks).toString("utf8")
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
    const table = Result.getOrThrow(synthTableFromArrow(await ingestText(mixed)))
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

  it("writes back a table that downloads as the same CSV, in either form (diamonds, the forms fixture, a mixed table)", async () => {
    const fixture = (path: string) => readFileSync(fileURLToPath(new URL(`../../../../test/fixtures/${path}`, import.meta.url)), "utf8")
    const diamonds = fixture("datasets/diamonds.csv")
    const forms = fixture("forms/forms.csv")
    for (const text of [mixed, diamonds, forms]) {
      const arrow = await ingestText(text)
      for (const values of ["source", "normalised"] as const) {
        // The ingested table as IPC is what the blob store holds for an uploaded dataset.
        const original = await csvOf(tableToIPC(arrow, "stream"), values)
        const roundTripped = await csvOf(synthTableToIpc(Result.getOrThrow(synthTableFromArrow(arrow))), values)
        expect(roundTripped).toBe(original)
      }
    }
    // The source form is the file's: booleans as Yes/No, dates as the file wrote them (not true/false and ISO).
    const sourceForm = await csvOf(synthTableToIpc(Result.getOrThrow(synthTableFromArrow(await ingestText(forms)))), "source")
    expect(sourceForm.split("\r\n")[1]).toContain(",Yes,yes,YES,Y,y,1,TRUE,True,true,2023-12-31,12/31/2023,1/5/2023,")
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
