import { describe, expect, it } from "@effect/vitest"
import { BlobKey, InvalidBlobKey } from "./BlobKey.ts"

describe("BlobKey", () => {
  it("joins valid segments with '/'", () => {
    const id = "0190f5c2-6a4e-7b1d-9c3e-2f8a1b4c5d6e"
    expect(BlobKey.make("datasets", id, "original")).toBe(`datasets/${id}/original`)
    expect(BlobKey.make("table.arrow")).toBe("table.arrow")
    expect(BlobKey.make("a".repeat(128))).toHaveLength(128)
  })

  it.each([
    ["a path that climbs out", ["../../etc/passwd"]],
    ["a segment holding a separator", ["a/b"]],
    ["an empty segment", [""]],
    ["a parent reference", [".."]],
    ["a current-directory reference", ["."]],
    ["a hidden name", [".env"]],
    ["'..' inside a segment", ["a..b"]],
    ["upper case", ["Original"]],
    ["markup", ["<script>"]],
    ["a backslash", ["a\\b"]],
    ["a space", ["my file.csv"]],
    ["a NUL byte", ["a\u0000b"]],
    ["a trailing newline", ["original\n"]],
    ["an absolute path", ["/etc"]],
    ["a segment over 128 characters", ["a".repeat(129)]],
    ["a bad segment after good ones", ["datasets", "../x"]],
    ["no segment at all", []]
  ])("rejects %s", (_, segments) => {
    expect(() => BlobKey.make(...segments)).toThrow(InvalidBlobKey)
  })

  it("names the offending segment in the error", () => {
    expect(() => BlobKey.make("datasets", "<script>")).toThrow(/"<script>"/)
  })
})
