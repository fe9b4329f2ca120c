import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { failure, readAll, utf8 } from "../records/testing.ts"

const bytes = (...parts: ReadonlyArray<ReadonlyArray<number> | Uint8Array>) => Uint8Array.from(parts.flatMap((part) => [...part]))

const utf16 = (text: string, littleEndian: boolean) =>
  Array.from(text).flatMap((char) => {
    const code = char.charCodeAt(0)
    return littleEndian ? [code & 0xff, code >> 8] : [code >> 8, code & 0xff]
  })

const csv = "name,city\nJosé,Zürich\n"
const expectedRows = [["José", "Zürich"]]

describe("encodings", () => {
  it("reads UTF-8 without and with a byte order mark", async () => {
    expect(await readAll(utf8(csv))).toMatchObject({ encoding: "utf-8", columns: ["name", "city"], rows: expectedRows })
    expect(await readAll(bytes([0xef, 0xbb, 0xbf], utf8(csv)), 2)).toMatchObject({
      encoding: "utf-8-bom",
      columns: ["name", "city"],
      rows: expectedRows
    })
  })

  it.each([[true, "utf-16le", [0xff, 0xfe]], [false, "utf-16be", [0xfe, 0xff]]] as const)(
    "reads UTF-16 with a byte order mark (little-endian: %s)",
    async (littleEndian, encoding, mark) => {
      const file = await readAll(bytes(mark, utf16(csv, littleEndian)), 3)
      expect(file).toMatchObject({ encoding, columns: ["name", "city"], rows: expectedRows })
    }
  )

  it("falls back to Windows-1252 for text that is not UTF-8, even when the first such byte is deep in the file", async () => {
    const latin = bytes(utf8("name,price\nJos"), [0xe9], utf8(","), [0x80], utf8(" 5\n"))
    expect(await readAll(latin)).toMatchObject({ encoding: "windows-1252", rows: [["José", "€ 5"]] })
    const late = bytes(utf8("name\n" + "ascii\n".repeat(30_000) + "caf"), [0xe9, 0x0a])
    const file = await readAll(late, 4096)
    expect(file.encoding).toBe("windows-1252")
    expect(file.rows.at(-1)).toEqual(["café"])
    expect(file.rows).toHaveLength(30_001)
  })

  it("reads the same text whatever the chunk sizes, with ASCII chunks between characters of other widths", async () => {
    const piece = fc.constantFrom("a", "1", "\n", "é", "€", "\uFEFF", "😀")
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 200 }), fc.boolean(), fc.integer({ min: 1, max: 16 }), async (pieces, mark, chunkSize) => {
        const file = bytes(mark ? [0xef, 0xbb, 0xbf] : [], utf8("text\n" + pieces.join("") + "\n"))
        expect(await readAll(file, chunkSize)).toEqual(await readAll(file, file.length))
      }),
      { numRuns: 300 }
    )
    const lateMark = await readAll(bytes(utf8("name\n" + "ascii\n".repeat(3000)), utf8("\uFEFFx\n")), 4096)
    expect(lateMark.rows.at(-1)).toEqual(["\uFEFFx"])
  })

  it("rejects bytes undefined in Windows-1252, and UTF-8 followed by bytes that are not", async () => {
    for (const byte of [0x81, 0x8d, 0x8f, 0x90, 0x9d]) {
      await expect(failure(bytes(utf8("a\n"), [byte], utf8("\n")))).resolves.toEqual({
        reason: "unsupported_encoding",
        message: expect.stringContaining("re-save the file as UTF-8")
      })
    }
    const mixed = bytes(utf8("a\n" + "é\n".repeat(3000)), [0xe9, 0x0a])
    await expect(failure(mixed, 1024)).resolves.toEqual({
      reason: "unsupported_encoding",
      message: expect.stringContaining("mixes encodings")
    })
  })

  it("rejects UTF-32 and BOM-less UTF-16 as unsupported encodings, saying what is supported", async () => {
    const supported = /UTF-8 \(preferred\), UTF-16 with a byte order mark, and Windows-1252 \/ ISO-8859-1/
    await expect(failure(bytes([0xff, 0xfe, 0, 0], [0x61, 0, 0, 0]))).resolves.toEqual({
      reason: "unsupported_encoding",
      message: expect.stringMatching(supported)
    })
    await expect(failure(bytes([0, 0, 0xfe, 0xff]))).resolves.toMatchObject({ reason: "unsupported_encoding" })
    await expect(failure(bytes(utf16(csv, true)))).resolves.toEqual({
      reason: "unsupported_encoding",
      message: expect.stringContaining("without a byte order mark")
    })
  })

  it.each([
    ["a PNG image", [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]],
    ["a ZIP archive", [0x50, 0x4b, 0x03, 0x04, 0x14, 0]],
    ["a gzip archive", [0x1f, 0x8b, 0x08, 0]],
    ["a PDF document", utf8("%PDF-1.7\n")],
    ["it has NUL bytes", [0x61, 0x2c, 0x62, 0x0a, 0x00, 0x01, 0x02, 0x03, 0x00, 0x05, 0x31, 0x2c]]
  ])("rejects binary content: %s", async (what, content) => {
    await expect(failure(bytes(content))).resolves.toEqual({
      reason: "unparseable_file",
      message: expect.stringContaining(`The file is binary (${what}`)
    })
  })
})
