import { describe, expect, it } from "@effect/vitest"
import { failure, readAll } from "../testing.ts"

describe("CSV records", () => {
  it("reads a header and rows as untrimmed strings, empty fields as empty strings", async () => {
    const file = await readAll("id, name ,note\n1, Ada ,\n2,Grace,x\n")
    expect(file).toMatchObject({ format: "csv", encoding: "utf-8", delimiter: ",", columns: ["id", "name", "note"] })
    expect(file.rows).toEqual([["1", " Ada ", ""], ["2", "Grace", "x"]])
  })

  it("handles CRLF, a missing final newline and skips blank lines", async () => {
    const file = await readAll("a,b\r\n1,2\r\n\r\n   \r\n3,4")
    expect(file.rows).toEqual([["1", "2"], ["3", "4"]])
  })

  it.each([1, 2, 5, 64 * 1024])("reads a blank line of a one-column file as a missing value, except at the end (%i-byte chunks)", async (chunk) => {
    const file = await readAll("\nname\nAda\n\n  \r\nGrace\n\n\n", chunk)
    expect(file.columns).toEqual(["name"])
    expect(file.rows).toEqual([["Ada"], [""], [""], ["Grace"]])
  })

  it.each([1, 2, 7, 64 * 1024])("parses quoted delimiters, doubled quotes and CRLF/LF newlines in %i-byte chunks", async (chunk) => {
    const text = "id,text,n\r\n1,\"a, \"\"b\"\"\r\nc\nd\",x\r\n\"2\",\"\",\"\"\"\"\r\n3,plain,\"end\"\n"
    const file = await readAll(text, chunk)
    expect(file.rows).toEqual([["1", "a, \"b\"\r\nc\nd", "x"], ["2", "", "\""], ["3", "plain", "end"]])
  })

  it.each([
    ["semicolon", "name;price\nx;1,5\ny;2,5\n", ";"],
    ["tab", "name\tcity\nSmith, J\tParis\nDoe, A\tRome\n", "\t"],
    ["pipe", "a|b|c\n1|2|3\n", "|"],
    ["comma on a tie", "a,b;c\n1,2;3\n", ","],
    ["comma for one column", "name\nAda\nGrace\n", ","]
  ])("sniffs the delimiter: %s", async (_, text, delimiter) => {
    const file = await readAll(text)
    expect(file.delimiter).toBe(delimiter)
    expect(file.rows.every((row) => row.length === file.columns.length)).toBe(true)
  })

  it("names the line and both field counts of a ragged row, counting quoted newlines", async () => {
    await expect(failure("a,b,c\n1,\"x\ny\",3\n4,5\n")).resolves.toEqual({
      reason: "unparseable_file",
      message: expect.stringMatching(/^Line 4 has 2 fields but the header has 3/)
    })
    await expect(failure("a,b\n1,2,3\n", 1)).resolves.toMatchObject({ message: expect.stringMatching(/^Line 2 has 3 fields/) })
  })

  it("rejects an unterminated quote at the end of the file and text after a closing quote", async () => {
    await expect(failure("a,b\n1,\"open\n2,3\n", 3)).resolves.toEqual({
      reason: "unparseable_file",
      message: expect.stringContaining("line 2 is never closed")
    })
    await expect(failure("a,b\n1,\"x\"y\n")).resolves.toMatchObject({ message: expect.stringContaining("line 2") })
  })

  it("trims header names and rejects blank and duplicate ones", async () => {
    expect((await readAll(" a , b \n1,2\n")).columns).toEqual(["a", "b"])
    await expect(failure("a,,c\n1,2,3\n")).resolves.toEqual({
      reason: "invalid_columns",
      message: expect.stringContaining("Column 2 of the header has a blank name")
    })
    await expect(failure("id,name, id\n1,2,3\n")).resolves.toEqual({
      reason: "invalid_columns",
      message: expect.stringContaining("\"id\" appears twice in the header (columns 1 and 3)")
    })
  })

  it("yields no rows for a header alone, and fails as empty_file without one", async () => {
    expect(await readAll("a,b\n")).toMatchObject({ columns: ["a", "b"], rows: [] })
    await expect(failure("")).resolves.toMatchObject({ reason: "empty_file" })
    await expect(failure(" \r\n\t\n ")).resolves.toMatchObject({ reason: "empty_file" })
  })

  it("batches many rows, none lost across chunk and batch boundaries", async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `${i},"v\n${i}"`)
    const file = await readAll(`n,v\n${lines.join("\n")}\n`, 1000)
    expect(file.rows).toHaveLength(20_000)
    expect(file.rows[19_999]).toEqual(["19999", "v\n19999"])
  })
})
