import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { decodeAuditCursor, encodeAuditCursor } from "./cursor.ts"

describe("the audit cursor", () => {
  it("gives back the position it was made from, and is not the position in plain sight", () => {
    for (const position of [1, 42, 9_007_199_254_740]) {
      const cursor = encodeAuditCursor(position)
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
      expect(cursor).not.toContain(String(position))
      expect(decodeAuditCursor(cursor)).toEqual(Option.some(position))
    }
  })

  it("refuses what it did not issue: other text, a dataset cursor, a negative or oversized position", () => {
    const foreign = [
      "",
      "42",
      "not a cursor",
      Buffer.from("v1:0190f1c2-0000-7000-8000-000000000000").toString("base64url"),
      Buffer.from("a1:-3").toString("base64url"),
      Buffer.from("a1:1234567890123456").toString("base64url"),
      Buffer.from("a1:12x").toString("base64url")
    ]
    for (const cursor of foreign) expect(decodeAuditCursor(cursor), cursor).toEqual(Option.none())
  })
})
