import { describe, expect, it } from "@effect/vitest"
import { DownloadParams } from "@synth/contracts"
import { Result, Schema, SchemaIssue } from "effect"

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

// What the 422 of a download with a bad query lists (problemDetails turns each issue into one `errors[]` entry).
const issuesOf = (query: Record<string, string>) => {
  const decoded = Schema.decodeUnknownResult(DownloadParams)(query, { errors: "all" })
  return Result.isFailure(decoded) ? formatIssues(decoded.failure.issue).issues : decoded.success
}

describe("download query", () => {
  it("accepts each format and form, and none (the defaults: csv, source)", () => {
    for (const format of ["csv", "json", "ndjson", "parquet"]) expect(issuesOf({ format })).toEqual({ format })
    expect(issuesOf({ values: "normalised" })).toEqual({ values: "normalised" })
    expect(issuesOf({})).toEqual({})
  })

  it("refuses an unknown value once per parameter, naming the allowed values", () => {
    expect(issuesOf({ format: "xlsx", values: "raw" })).toEqual([
      { path: ["format"], message: "must be one of csv, json, ndjson, parquet" },
      { path: ["values"], message: "must be one of source, normalised" }
    ])
    expect(issuesOf({ format: "CSV" })).toEqual([
      { path: ["format"], message: "must be one of csv, json, ndjson, parquet" }
    ])
  })
})
