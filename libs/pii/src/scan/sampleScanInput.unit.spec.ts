import { describe, expect, it } from "@effect/vitest"
import { ingestTable, readTable } from "@synth/tabular"
import { Effect, Stream } from "effect"
import { sampleRowIndices, sampleScanInput } from "./sampleScanInput.ts"

const tableOf = (csv: string) =>
  Effect.flatMap(
    ingestTable(() => Stream.make(new TextEncoder().encode(csv))),
    ({ table }) => readTable(table)
  )

describe("sampleRowIndices", () => {
  it("takes every row of a table no longer than the sample", () => {
    expect(sampleRowIndices(5, 10)).toEqual([0, 1, 2, 3, 4])
  })

  it("spreads a bounded sample evenly from the first row to near the last", () => {
    const rows = sampleRowIndices(1_000_000, 10_000)
    expect(rows).toHaveLength(10_000)
    expect(rows[0]).toBe(0)
    expect(rows[1]).toBe(100)
    expect(rows.at(-1)).toBe(999_900)
    expect(new Set(rows).size).toBe(10_000)
  })
})

describe("sampleScanInput", () => {
  it.effect("gives row-aligned text values of every type, null for missing, as the CSV download shows them", () =>
    Effect.gen(function* () {
      const table = yield* tableOf(
        [
          "id,email,score,active,born,seen",
          "1,ada@example.com,1.5,true,1990-02-03,2024-01-02T03:04:05Z",
          "2,,2.25,false,1985-12-31,",
          "3,alan@example.com,,true,,2024-05-06T07:08:09Z"
        ].join("\n")
      )
      const input = sampleScanInput(table, 100)
      expect(input.rowCount).toBe(3)
      expect(input.columns.map((column) => [column.name, column.kind])).toEqual([
        ["id", "integer"],
        ["email", "string"],
        ["score", "float"],
        ["active", "boolean"],
        ["born", "date"],
        ["seen", "datetime"]
      ])
      expect(input.columns.map((column) => column.values)).toEqual([
        ["1", "2", "3"],
        ["ada@example.com", null, "alan@example.com"],
        ["1.5", "2.25", null],
        ["true", "false", "true"],
        ["1990-02-03", "1985-12-31", null],
        ["2024-01-02T03:04:05.000Z", null, "2024-05-06T07:08:09.000Z"]
      ])
    }))

  it.effect("samples at most the bound, keeping values of one row together", () =>
    Effect.gen(function* () {
      const lines = Array.from({ length: 1_000 }, (_, index) => `${index},user${index}@example.com`)
      const table = yield* tableOf(["n,email", ...lines].join("\n"))
      const input = sampleScanInput(table, 100)
      expect(input.rowCount).toBe(1_000)
      const [numbers, emails] = input.columns
      expect(numbers!.values).toHaveLength(100)
      numbers!.values.forEach((value, row) => expect(emails!.values[row]).toBe(`user${value}@example.com`))
      expect(numbers!.values.slice(0, 3)).toEqual(["0", "10", "20"])
    }))
})
