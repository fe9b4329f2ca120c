import { describe, expect, it } from "vitest"
import { parseCsv } from "./parseCsv.ts"

describe("parseCsv", () => {
  it("reads quoted fields with delimiters, doubled quotes and line breaks", () => {
    expect(parseCsv("a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\n\"two\nlines\",\n")).toEqual([
      ["a", "b"],
      ["x, y", "say \"hi\""],
      ["two\nlines", ""]
    ])
  })

  it("splits on another delimiter when told, and keeps a last record without a line break", () => {
    expect(parseCsv("a;b\n1,5;2", ";")).toEqual([["a", "b"], ["1,5", "2"]])
  })
})
