import type { SynthTable } from "@synth/synth"
import { describe, expect, it } from "vitest"
import { columnFromText, columnText } from "./columnText.ts"
import { rowKeyer } from "./rowKeys.ts"
import { filterRealRows, realRowFilter } from "./similarityFilter.ts"

const table = (rows: ReadonlyArray<readonly [string | null, string | null]>): SynthTable => ({
  rowCount: rows.length,
  columns: [
    columnFromText("city", "string", rows.map((row) => row[0])),
    columnFromText("income", "float", rows.map((row) => row[1]))
  ]
})

const rowsOf = (synth: SynthTable) => {
  const [city, income] = synth.columns.map(columnText)
  return city!.map((value, row) => [value, income![row]])
}

const real = table([["Berlin", "52000.5"], ["Paris", "61000"], ["Rome", null]])

describe("filterRealRows", () => {
  it("replaces every row equal to a real row by a fresh draw, and counts them", () => {
    const filter = realRowFilter(real, "salt")
    const sample = table([["Berlin", "52000.5"], ["Berlin", "52000.75"], ["Rome", null]])
    const draws: Array<SynthTable> = [table([["Paris", "61000"], ["Oslo", "1"], ["Rome", "7"], ["Lima", "9"]])]
    const outcome = filterRealRows(sample, filter.mightContain, (rows, round) => {
      expect(rows).toBe(4)
      return draws[round]!
    })
    expect(outcome.filteredRows).toBe(2)
    expect(outcome.copiesKept).toBe(0)
    expect(rowsOf(outcome.table)).toEqual([["Oslo", "1"], ["Berlin", "52000.75"], ["Rome", "7"]])
  })

  it("keeps a row it cannot replace within its rounds, and says so", () => {
    const filter = realRowFilter(real, "salt")
    const outcome = filterRealRows(table([["Paris", "61000"]]), filter.mightContain, () => table([["Paris", "61000"], ["Paris", "61000"]]))
    expect(outcome).toMatchObject({ filteredRows: 0, copiesKept: 1 })
  })

  it("returns the sample itself when no row is real", () => {
    const sample = table([["Oslo", "3"]])
    expect(filterRealRows(sample, realRowFilter(real, "salt").mightContain, () => real)).toEqual({ table: sample, filteredRows: 0, copiesKept: 0 })
  })

  it("tells rows apart by every column, missing values included", () => {
    const keyOf = rowKeyer(table([["Rome", null], ["Rome", "0"], [null, "0"]]))
    expect(new Set([keyOf(0), keyOf(1), keyOf(2)]).size).toBe(3)
  })
})

describe("columnText and columnFromText", () => {
  it("round-trip every type through the text the CSV shows", () => {
    const texts = {
      integer: ["12", null, "-3"],
      float: ["1.5", "0.1", null],
      date: ["1999-12-31", null, "2024-02-29"],
      datetime: ["2024-02-29T10:11:12.000Z", null, "1970-01-01T00:00:00.000Z"],
      string: ["a", null, "b"],
      boolean: ["true", "false", null]
    } as const
    for (const [type, values] of Object.entries(texts)) {
      expect(columnText(columnFromText("x", type as keyof typeof texts, values))).toEqual(values)
    }
  })
})
