import { describe, expect, it } from "@effect/vitest"
import { Option } from "effect"
import { decodeCursor, encodeCursor } from "./cursor.ts"

describe("dataset list cursor", () => {
  it("round-trips the last id of a page", () => {
    const id = "01a20253-ea72-701b-80bc-457caed70551"
    expect(decodeCursor(encodeCursor(id))).toStrictEqual(Option.some(id))
  })

  it("refuses what it did not issue", () => {
    for (const cursor of ["", "zzz", "not base64!", Buffer.from("v1:not-a-uuid").toString("base64url"), "x".repeat(300)]) {
      expect(decodeCursor(cursor)).toStrictEqual(Option.none())
    }
  })
})
