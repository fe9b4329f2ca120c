import { describe, expect, it } from "vitest"
import { columnFromText, columnText } from "./columnText.ts"
import { hashColumn, pseudonym } from "./keyedHash.ts"

describe("hashColumn", () => {
  it("gives equal values equal pseudonyms, different keys different ones, and keeps missing values missing", () => {
    const column = columnFromText("customer", "integer", ["1001", "1002", null, "1001"])
    const hashed = columnText(hashColumn(column, "key-a"))
    expect(hashed[0]).toBe(hashed[3])
    expect(hashed[0]).not.toBe(hashed[1])
    expect(hashed[2]).toBeNull()
    expect(hashed[0]).toMatch(/^h[0-9a-f]{16}$/)
    expect(hashed[0]).toBe(pseudonym("key-a", "1001"))
    expect(pseudonym("key-b", "1001")).not.toBe(hashed[0])
    expect(hashed.join()).not.toContain("1001")
  })
})
