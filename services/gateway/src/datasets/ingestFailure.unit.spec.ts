import { describe, expect, it } from "@effect/vitest"
import { EmptyDataset, InvalidColumns, UnparseableFile, UnsupportedEncoding } from "@synth/contracts"
import { ingestFailureError } from "./ingestFailure.ts"

describe("ingestFailureError", () => {
  it("maps each reason of the ingest service to its wire error and status", () => {
    const cases = [
      ["empty_file", EmptyDataset, 422, "empty_dataset"],
      ["no_data_rows", EmptyDataset, 422, "empty_dataset"],
      ["invalid_columns", InvalidColumns, 422, "invalid_columns"],
      ["unparseable_file", UnparseableFile, 422, "unparseable_file"],
      ["unsupported_encoding", UnsupportedEncoding, 415, "unsupported_encoding"]
    ] as const
    for (const [reason, errorClass, status, code] of cases) {
      const error = ingestFailureError(reason, "Line 3 has 3 fields but the header has 2.")
      expect(error).toBeInstanceOf(errorClass)
      expect(error).toMatchObject({ status, code, detail: "Line 3 has 3 fields but the header has 2." })
    }
  })

  it("says what to do when the stored message is empty", () => {
    expect(ingestFailureError("unsupported_encoding", null).detail).toMatch(/UTF-8/)
    expect(ingestFailureError("no_data_rows", "  ").detail).toMatch(/no data rows/)
  })

  it("uses the spec's messages as titles", () => {
    expect(ingestFailureError("unparseable_file", null).title).toBe("Unable to parse file")
    expect(ingestFailureError("unsupported_encoding", null).title).toBe("Character encoding not supported")
  })
})
