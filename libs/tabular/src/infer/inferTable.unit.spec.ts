import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { fixedRecords, ingestRecords } from "../../test/ingestHelpers.ts"
import type { Cell } from "../records/RecordStream.ts"
import { TabularError } from "../TabularError.ts"
import { inferTable } from "./inferTable.ts"

const infer = async (rows: ReadonlyArray<ReadonlyArray<Cell>>, columns = ["x"]) =>
  inferTable(await fixedRecords(columns, rows)(() => (async function*() {})()))

/** The schema of a one-column table holding `cells`. */
const column = async (...cells: ReadonlyArray<Cell>) => (await infer(cells.map((cell) => [cell]))).summary.columns[0]!

const typeOf = async (...cells: ReadonlyArray<Cell>) => (await column(...cells)).type

describe("inferTable", () => {
  describe("booleans", () => {
    it.each([
      [["true", "false", "TRUE", "False"], "true/false"],
      [["yes", "no", "Yes", "NO"], "yes/no"],
      [["y", "n", "Y"], "y/n"],
      [["1", "0", "1"], "1/0"]
    ])("reads %j as boolean (%s)", async (cells, sourceFormat) => {
      expect(await column(...cells)).toMatchObject({ type: "boolean", sourceFormat })
    })

    it("keeps a column mixing 0/1 with 2 an integer column", async () => {
      expect(await typeOf("0", "1", "2")).toBe("integer")
    })

    it("does not mix pairs", async () => {
      expect(await typeOf("yes", "0")).toBe("string")
    })

    it("does not take t/f as booleans", async () => {
      expect(await typeOf("t", "f")).toBe("string")
    })

    it("takes JSON booleans, and JSON 0/1 as CSV would", async () => {
      expect(await column(true, false)).toMatchObject({ type: "boolean", sourceFormat: null })
      expect(await typeOf(1, 0, "yes")).toBe("string")
      expect(await typeOf(1, 0)).toBe("boolean")
    })
  })

  describe("numbers", () => {
    it.each([
      [["1", "-2", "+3"], "integer"],
      [["1", "2.5"], "float"],
      [["1e3", "2"], "float"],
      [[".5", "-0.25"], "float"],
      [["2.0"], "float"],
      [["9007199254740991", "-9007199254740991"], "integer"],
      [["9007199254740992"], "string"],
      [["1e999"], "string"],
      [["inf", "1"], "string"],
      [["NaN-ish"], "string"],
      [["007", "12"], "string"],
      [["0x10"], "string"],
      [[12.5, 3], "float"],
      [[3, 4], "integer"]
    ])("reads %j as %s", async (cells, type) => {
      expect(await typeOf(...cells)).toBe(type)
    })

    it("resolves comma thousands from an unambiguous cell", async () => {
      expect(await column("1,234", "1,234,567")).toMatchObject({ type: "integer", sourceFormat: "thousands-separator" })
      expect(await column("1,234", "1,234.5")).toMatchObject({ type: "float", sourceFormat: "thousands-separator" })
    })

    it("resolves a decimal comma from an unambiguous cell", async () => {
      expect(await column("3,14", "1,234")).toMatchObject({ type: "float", sourceFormat: "decimal-comma" })
      expect(await column("0,5")).toMatchObject({ type: "float", sourceFormat: "decimal-comma" })
      expect(await column("1.234.567,89", "12")).toMatchObject({ type: "float", sourceFormat: "decimal-comma" })
    })

    it("leaves a column whose only comma forms are ambiguous as text", async () => {
      expect(await typeOf("1,234", "12")).toBe("string")
      expect(await typeOf("1,234", "12,345")).toBe("string")
    })

    it("reads a lone dot group as a decimal point unless a decimal comma is proven", async () => {
      expect(await typeOf("1.234")).toBe("float")
      expect(await column("1.234", "3,5")).toMatchObject({ type: "float", sourceFormat: "decimal-comma" })
    })

    it("does not mix conventions", async () => {
      expect(await typeOf("1,234,567", "3,14")).toBe("string")
    })

    it("counts values written with separators as standardised", async () => {
      const { summary } = await infer([["1,234,567"], ["12"], ["1,000"]])
      expect(summary.cleaning.standardisedValues).toBe(2)
    })
  })

  describe("dates", () => {
    it.each([
      [["2024-02-29", "1999-12-31"], "date", "YYYY-MM-DD"],
      [["01/02/2024", "12/31/2024"], "date", "MM/DD/YYYY"],
      [["01/02/2024", "31/12/2024"], "date", "DD/MM/YYYY"],
      [["01/02/2024", "02/03/2024"], "date", "MM/DD/YYYY"],
      [["01.02.2024"], "date", "DD.MM.YYYY"],
      [["01.02.2024", "02.13.2024"], "date", "MM.DD.YYYY"],
      [["1-2-2024"], "date", "DD-MM-YYYY"]
    ])("reads %j as %s (%s)", async (cells, type, sourceFormat) => {
      expect(await column(...cells)).toMatchObject({ type, sourceFormat })
    })

    it.each([
      ["both orders contradicted", ["13/01/2024", "01/13/2024"]],
      ["February 30th", ["2024-02-30"]],
      ["February 29th in a common year", ["2023-02-29"]],
      ["month 13", ["2024-13-01"]],
      ["mixed forms", ["2024-01-02", "01/02/2024"]],
      ["a two-digit year", ["01/02/24"]],
      ["a number among dates", ["2024-01-02", "5"]]
    ])("leaves text with %s", async (_, cells) => {
      expect(await typeOf(...cells)).toBe("string")
    })

    it("converts day-first dates", async () => {
      const { values } = await ingestValues(["31/12/2024", "01/02/2024"])
      expect(values).toEqual(["2024-12-31", "2024-02-01"])
    })
  })

  describe("date-times", () => {
    it.each([
      [["2024-01-02T03:04:05Z", "2024-01-02 03:04"], "2024-01-02T03:04:05.000Z"],
      [["2024-01-02T03:04:05.123456+02:00"], "2024-01-02T01:04:05.123Z"],
      [["2024-01-02T03:04:05-0130"], "2024-01-02T04:34:05.000Z"],
      [["12/31/2024 11:30 PM"], "2025-01-01T23:30:00.000Z"]
    ])("reads %j", async (cells, first) => {
      expect(await typeOf(...cells)).toBe("datetime")
      if (cells[0] !== "12/31/2024 11:30 PM") expect((await ingestValues(cells)).values[0]).toBe(first)
    })

    it("takes a PM time in the afternoon", async () => {
      expect((await ingestValues(["12/31/2024 11:30 PM"])).values[0]).toBe("2024-12-31T23:30:00.000Z")
    })

    it("makes a column mixing dates and date-times a datetime column", async () => {
      expect(await typeOf("2024-01-02", "2024-01-02T10:00:00Z")).toBe("datetime")
    })

    it("rejects impossible times", async () => {
      expect(await typeOf("2024-01-02T24:00:00")).toBe("string")
      expect(await typeOf("2024-01-02T10:60")).toBe("string")
    })
  })

  describe("cleaning", () => {
    it("trims cells and counts the trims", async () => {
      const { summary } = await infer([[" 1"], ["2 "], ["3"]])
      expect(summary.columns[0]!.type).toBe("integer")
      expect(summary.cleaning.trimmedCells).toBe(2)
    })

    it("treats missing tokens as missing, whatever their case", async () => {
      const { summary } = await infer([["NA"], ["n/a"], ["NULL"], ["nan"], ["None"], ["-"], [""], [null], ["4"]])
      expect(summary.columns[0]).toMatchObject({ type: "integer", missingCount: 8 })
      expect(summary.cleaning.missingTokens).toBe(6)
    })

    it("makes an all-missing column a string column", async () => {
      expect(await column(null, "NA")).toMatchObject({ type: "string", missingCount: 2 })
    })

    it("counts short rows as missing at the end", async () => {
      const { summary } = await infer([["1", "2"], ["3"]], ["a", "b"])
      expect(summary.columns[1]).toMatchObject({ type: "integer", missingCount: 1 })
    })

    it("fails on a header without data rows", async () => {
      await expect(infer([])).rejects.toEqual(
        new TabularError({ reason: "no_data_rows", message: "the file has a header but no data rows" })
      )
    })
  })
})

const ingestValues = async (cells: ReadonlyArray<Cell>) => {
  const { values } = await Effect.runPromise(ingestRecords(["x"], cells.map((cell) => [cell])))
  return { values: values["x"]! }
}
