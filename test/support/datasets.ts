// Assertions of the dataset tests: the wire shapes from the contracts, checked responses, problems, CSV downloads.
import * as Contract from "@synth/contracts"
import { Schema } from "effect"
import { expect } from "vitest"
import { bearer, http, type RawResponse } from "./http.ts"
import { type FormPart, multipart } from "./upload.ts"

/** POST /datasets/upload with one `file` part. */
export const upload = (baseUrl: string, token: string, filename: string, content: string | Buffer): Promise<RawResponse> =>
  uploadParts(baseUrl, token, [{ name: "file", filename, content }])

export const uploadParts = (baseUrl: string, token: string, parts: ReadonlyArray<FormPart>): Promise<RawResponse> => {
  const { body, contentType } = multipart(parts)
  return http(`${baseUrl}/datasets/upload`, {
    method: "POST",
    headers: { ...bearer(token), "content-type": contentType },
    body,
    timeoutMs: 120_000
  })
}

/** The wire shapes, from the contracts (what a client sees: plain strings, not branded ids). */
export type UploadResult = typeof Contract.UploadResult.Encoded
export type ListItem = typeof Contract.DatasetListItem.Encoded
export type DatasetDetail = typeof Contract.DatasetDetail.Encoded
export type ColumnType = DatasetDetail["columns"][number]["type"]

/** The upload's 201 body, after checking the status. */
export const uploaded = (response: RawResponse): UploadResult => {
  expect(response.status, response.text).toBe(201)
  return Schema.encodeSync(Contract.UploadResult)(Schema.decodeUnknownSync(Contract.UploadResult)(response.json))
}

export const getDataset = async (baseUrl: string, token: string, id: string): Promise<DatasetDetail> => {
  const response = await http(`${baseUrl}/datasets/${id}`, { headers: bearer(token) })
  expect(response.status, response.text).toBe(200)
  return Schema.encodeSync(Contract.DatasetDetail)(Schema.decodeUnknownSync(Contract.DatasetDetail)(response.json))
}

/** GET /datasets/{id}/download; `query` such as `?format=json&values=normalised`. */
export const download = (baseUrl: string, token: string, id: string, query = ""): Promise<RawResponse> =>
  http(`${baseUrl}/datasets/${id}/download${query}`, { headers: bearer(token), timeoutMs: 120_000 })

/** Column name → inferred type. */
export const typesOf = (detail: DatasetDetail): Record<string, ColumnType> =>
  Object.fromEntries(detail.columns.map((column) => [column.name, column.type]))

/** Column name → missing count. */
export const missingOf = (detail: DatasetDetail): Record<string, number> =>
  Object.fromEntries(detail.columns.map((column) => [column.name, column.missing_count]))

/** RFC 4180 CSV into rows of fields; enough to read what the server sends. */
export { parseCsv } from "@synth/stats/testing"

export interface Problem {
  readonly type: string
  readonly title: string
  readonly status: number
  readonly detail: string
  readonly code: string
  readonly request_id: string
}

/** An RFC 9457 problem with this code and one of these statuses, and a detail that is a sentence; the problem. */
export const expectProblem = (response: RawResponse, statuses: number | ReadonlyArray<number>, code: string): Problem => {
  const allowed = typeof statuses === "number" ? [statuses] : statuses
  expect(allowed, `status ${response.status}: ${response.text}`).toContain(response.status)
  expect(response.header("content-type"), response.text).toMatch(/^application\/problem\+json\b/)
  const problem = response.json as Problem
  expect(problem, response.text).toMatchObject({ status: response.status, code })
  expect(typeof problem.type).toBe("string")
  expect(typeof problem.title).toBe("string")
  expect(typeof problem.request_id).toBe("string")
  // A useful sentence: more than a code or a word, and not the generic 5xx text.
  expect(problem.detail.length, problem.detail).toBeGreaterThan(20)
  expect(problem.detail.split(/\s+/).length, problem.detail).toBeGreaterThanOrEqual(4)
  return problem
}
