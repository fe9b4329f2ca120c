import { describe, expect, it } from "@effect/vitest"
import { attachmentDisposition, downloadNameFor } from "./contentDisposition.ts"

const plainName = (disposition: string) => /filename="([^"]*)"/.exec(disposition)?.[1]
const extendedName = (disposition: string) => decodeURIComponent(/filename\*=UTF-8''(\S+)$/.exec(disposition)?.[1] ?? "")

describe("attachmentDisposition", () => {
  it("names the download after the original's base name with the extension .csv", () => {
    expect(downloadNameFor("sales.json")).toBe("sales.csv")
    expect(downloadNameFor("archive.tar.ndjson")).toBe("archive.tar.csv")
    expect(downloadNameFor("no-extension")).toBe("no-extension.csv")
    expect(downloadNameFor("../../etc/passwd")).toBe("passwd.csv")
    expect(downloadNameFor("C:\\Users\\ada\\data.csv")).toBe("data.csv")
    expect(downloadNameFor("")).toBe("dataset.csv")
    expect(downloadNameFor("..")).toBe("dataset.csv")
    expect(downloadNameFor("dir/")).toBe("dataset.csv")
  })

  it("takes the extension of the format downloaded", () => {
    expect(downloadNameFor("sales.csv", ".parquet")).toBe("sales.parquet")
    expect(downloadNameFor("events.ndjson", ".json")).toBe("events.json")
    expect(downloadNameFor("survey", ".ndjson")).toBe("survey.ndjson")
    const disposition = attachmentDisposition("Lön 2024.csv", ".parquet")
    expect(plainName(disposition)).toBe("Lon 2024.parquet")
    expect(extendedName(disposition)).toBe("Lön 2024.parquet")
  })

  const hostile = [
    "../../etc/passwd",
    "<script>alert(1)</script>.csv",
    "a\"b'c.csv",
    "x'; DROP TABLE datasets;--.csv",
    "evil\r\nSet-Cookie: a=b.csv",
    "naïve résumé 日本.csv",
    "back\\slash%41.csv"
  ]
  for (const filename of hostile) {
    it(`keeps the header safe for ${JSON.stringify(filename)}`, () => {
      const disposition = attachmentDisposition(filename)
      expect(disposition).toMatch(/^attachment; filename="[^"]*"; filename\*=UTF-8''\S+$/)
      expect(disposition).not.toMatch(/[\r\n]/)
      expect(disposition).toMatch(/^[\x20-\x7e]+$/)
      expect(plainName(disposition)).not.toMatch(/["\\/%]/)
      expect(extendedName(disposition)).toBe(downloadNameFor(filename))
    })
  }

  it("folds accents into the ASCII name and keeps the exact name in filename*", () => {
    const disposition = attachmentDisposition("naïve résumé.json")
    expect(plainName(disposition)).toBe("naive resume.csv")
    expect(extendedName(disposition)).toBe("naïve résumé.csv")
  })

  it("drops control characters, so CR/LF never split the header", () => {
    expect(downloadNameFor("evil\r\nSet-Cookie: a=b.csv")).toBe("evilSet-Cookie: a=b.csv")
  })
})
