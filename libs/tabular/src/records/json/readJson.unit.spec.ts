import { describe, expect, it } from "@effect/vitest"
import { failure, readAll } from "../testing.ts"

describe("JSON array records", () => {
  it.each([1, 5, 64 * 1024])("streams elements in %i-byte chunks, flattening objects and keeping arrays as JSON text", async (chunk) => {
    const text = ' \n[{"id":1,"who":{"name":"A \\"q\\" ]}","age":3},"tags":[1,"}"]},\n' +
      '{"id":2,"ok":true,"who":{"age":null}}, {"note":"\\\\"}]\n'
    const file = await readAll(text, chunk)
    expect(file).toMatchObject({ format: "json", delimiter: null, columns: ["id", "who.name", "who.age", "tags", "ok", "note"] })
    expect(file.rows).toEqual([
      [1, "A \"q\" ]}", 3, "[1,\"}\"]"],
      [2, null, null, null, true],
      [null, null, null, null, null, "\\"]
    ])
  })

  it("rejects elements that are not objects, naming the element", async () => {
    await expect(failure("[{\"a\":1},{\"a\":2},3]")).resolves.toEqual({
      reason: "unparseable_file",
      message: "Element 3 of the JSON array is a number; expected an object per row."
    })
  })

  it("fails as empty_file for an empty array", async () => {
    await expect(failure(" [ ] ")).resolves.toMatchObject({ reason: "empty_file" })
  })

  it("reports truncation, trailing text, a missing element and invalid JSON with a position", async () => {
    await expect(failure("[{\"a\":1},{\"a\":")).resolves.toEqual({
      reason: "unparseable_file",
      message: expect.stringContaining("not closed: the file ends inside element 2")
    })
    await expect(failure("[{\"a\":1}] x")).resolves.toMatchObject({ message: expect.stringContaining("character 10") })
    await expect(failure("[{\"a\":1},]")).resolves.toMatchObject({ message: expect.stringContaining("Element 2") })
    await expect(failure("[{\"a\":1},{\"a\":tru}]")).resolves.toEqual({
      reason: "unparseable_file",
      message: "Element 2 of the JSON array (at character 9) is not valid JSON."
    })
  })

  it("rejects a dotted key that collides with a flattened nested key, and blank keys", async () => {
    await expect(failure("[{\"a.b\":1},{\"a\":{\"b\":2}}]")).resolves.toEqual({
      reason: "invalid_columns",
      message: expect.stringContaining("column \"a.b\"")
    })
    await expect(failure("[{\" \":1}]")).resolves.toMatchObject({ reason: "invalid_columns" })
  })
})

describe("NDJSON records", () => {
  it("reads one object per line, skipping blank lines; a lone object is one row", async () => {
    const file = await readAll("{\"a\":1,\"b\":{\"c\":\"x\"}}\r\n\n{\"b\":{\"c\":\"y\"},\"d\":[]}\n", 3)
    expect(file).toMatchObject({ format: "ndjson", columns: ["a", "b.c", "d"] })
    expect(file.rows).toEqual([[1, "x"], [null, "y", "[]"]])
    expect((await readAll("{\"only\":true}")).rows).toEqual([[true]])
  })

  it("names the line of invalid JSON or of a value that is not an object", async () => {
    await expect(failure("{\"a\":1}\n\n{\"a\":\n")).resolves.toEqual({
      reason: "unparseable_file",
      message: expect.stringMatching(/^Line 3 is not valid JSON/)
    })
    await expect(failure("{\"a\":1}\n[1]\n")).resolves.toEqual({
      reason: "unparseable_file",
      message: "Line 2 is an array; expected one JSON object per line."
    })
  })
})
