import { HttpClientRequest, HttpClientResponse } from "effect/http"
import { describe, expect, it } from "vitest"
import { announcedSize, downloadUrl } from "./request.ts"

const answer = (headers: Record<string, string>) =>
  HttpClientResponse.fromWeb(HttpClientRequest.get("http://127.0.0.1/x"), new Response("abc", { headers }))

describe("downloadUrl", () => {
  it("asks for a format only when one is given, and keeps the id one path segment", () => {
    expect(downloadUrl("http://h:8000", "abc", undefined)).toBe("http://h:8000/datasets/abc/download")
    expect(downloadUrl("http://h:8000", "abc", "parquet")).toBe("http://h:8000/datasets/abc/download?format=parquet")
    expect(downloadUrl("https://h/api", "../a b", "csv")).toBe("https://h/api/datasets/..%2Fa%20b/download?format=csv")
  })
})

describe("announcedSize", () => {
  it("is Content-Length when the body arrives as sent", () => {
    expect(announcedSize(answer({ "content-length": "3" }))).toBe(3)
    expect(announcedSize(answer({ "content-length": "3", "content-encoding": "identity" }))).toBe(3)
  })

  it("is unknown without a usable Content-Length, or when fetch undoes a Content-Encoding", () => {
    expect(announcedSize(answer({}))).toBeUndefined()
    expect(announcedSize(answer({ "content-length": "lots" }))).toBeUndefined()
    expect(announcedSize(answer({ "content-length": "3", "content-encoding": "gzip" }))).toBeUndefined()
  })
})
