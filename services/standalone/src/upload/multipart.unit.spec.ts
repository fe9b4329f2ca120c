import { describe, expect, it } from "vitest"
import { filenameParameters, multipartEnvelope } from "./multipart.ts"

describe("filenameParameters", () => {
  it("sends a plain printable-ASCII name as filename=\"...\" only", () => {
    expect(filenameParameters("penguins 2024.csv")).toBe("filename=\"penguins 2024.csv\"")
  })

  it("adds the exact name as filename* (RFC 8187) beside an ASCII fallback for any other name", () => {
    expect(filenameParameters("résumé (1).csv")).toBe(
      "filename=\"r_sum_ (1).csv\"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29.csv"
    )
    expect(filenameParameters("a\"b\\c\r\n.csv")).toBe(
      "filename=\"a%22b%5Cc%0D%0A.csv\"; filename*=UTF-8''a%22b%5Cc%0D%0A.csv"
    )
  })
})

describe("multipartEnvelope", () => {
  it("frames the file between head and tail and counts the whole body", () => {
    const envelope = multipartEnvelope("file", "data.csv", "text/csv")
    const boundary = envelope.contentType.replace("multipart/form-data; boundary=", "")
    expect(envelope.head.toString("utf8")).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="data.csv"\r\nContent-Type: text/csv\r\n\r\n`
    )
    expect(envelope.tail.toString("utf8")).toBe(`\r\n--${boundary}--\r\n`)
    expect(envelope.contentLength(10)).toBe(envelope.head.length + 10 + envelope.tail.length)
  })
})
