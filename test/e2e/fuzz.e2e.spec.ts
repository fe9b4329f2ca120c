// Property-based requests against every endpoint of the running service (issue 24): whatever the path parameters,
// query, JSON body, multipart body or headers, the answer comes within a bound, is never a 5xx, and an error is the
// one error shape. The endpoints come from the service's own OpenAPI document, so a new endpoint is fuzzed too.
// Fixed seed and bounded runs: the same requests every time, a few minutes at most.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { upload, uploaded } from "../support/datasets.ts"
import { http, type RawResponse } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { createAccount } from "../support/upload.ts"

const seed = 20261128
const answerTimeoutMs = 15_000

let server: RunningServer
let baseUrl: string
let token: string
let datasetId: string
/** A dataset the fuzzer is never told about: it must come through untouched. */
let keptId: string
let endpoints: ReadonlyArray<{ readonly method: string; readonly path: string }>

beforeAll(async () => {
  server = await startServer({
    runtime: "node",
    env: { RATE_LIMIT_PER_MINUTE: "1000000", AUTH_RATE_LIMIT_PER_MINUTE: "1000000", BODY_IDLE_TIMEOUT: "5 seconds" }
  })
  baseUrl = server.baseUrl
  token = await createAccount(baseUrl, "fuzz")
  datasetId = uploaded(await upload(baseUrl, token, "fuzz.csv", "a,b,c\n1,x,true\n2,y,false\n3,x,true\n")).id
  keptId = uploaded(await upload(baseUrl, token, "kept.csv", "a,b,c\n1,x,true\n2,y,false\n3,x,true\n")).id
  const document = (await http(`${baseUrl}/openapi.json`, { timeoutMs: 10_000 })).json as { paths: Record<string, Record<string, unknown>> }
  endpoints = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.keys(operations).filter((method) => method !== "parameters").map((method) => ({ method: method.toUpperCase(), path }))
  )
}, 120_000)

afterAll(async () => {
  await server?.stop()
})

/** Text that stresses parsers: control characters, Unicode, traversal, huge numbers, prototype keys. */
const nastyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom("..", "../../etc/passwd", "%2e%2e%2f", "%00", "__proto__", "constructor", "9".repeat(400), "-1", "1e309", "NaN", "null", " ", "\u0000", "\u202e", "😀")
)

/** Text an HTTP client can put in a header at all (RFC 9110 field values: no CR, LF or NUL). */
const headerText = nastyText.map((text) => text.replace(/[^\t\x20-\x7e\x80-\xff]/g, ""))

/** A path parameter: usually a real id (so validation goes deep), otherwise anything. */
const parameter = fc.oneof(
  { weight: 2, arbitrary: fc.constant("DATASET") },
  { weight: 1, arbitrary: fc.uuid().map(String) },
  { weight: 2, arbitrary: nastyText }
)

const jsonValue = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  {
    weight: 3,
    arbitrary: fc.record(
      {
        generator_type: fc.constantFrom("gaussian_copula", "ctgan", "tvae", "dp-ctgan", "x"),
        num_rows: fc.oneof(fc.integer(), fc.double(), fc.constant(1e12), nastyText),
        epochs: fc.oneof(fc.integer({ min: -5, max: 100_000 }), nastyText),
        seed: fc.oneof(fc.integer(), fc.constant(null)),
        email: nastyText,
        password: nastyText,
        dataset_id: parameter,
        target_epsilon: fc.oneof(fc.double(), fc.constant(0), fc.constant(-1)),
        columns: fc.dictionary(nastyText, fc.record({ handling: fc.constantFrom("fake", "drop", "keep", "hash", "x") })),
        __proto__: fc.jsonValue({ maxDepth: 2 })
      },
      { requiredKeys: [] }
    )
  }
)

type Body =
  | { readonly kind: "none" }
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "raw"; readonly contentType: string; readonly text: string }
  | { readonly kind: "multipart"; readonly boundary: string; readonly text: string }

const body: fc.Arbitrary<Body> = fc.oneof(
  fc.constant<Body>({ kind: "none" }),
  jsonValue.map((value): Body => ({ kind: "json", value })),
  // Deeply nested JSON, to find stack limits (as text: the value itself is too deep for fast-check to print).
  fc.integer({ min: 100, max: 20_000 }).map((depth): Body => ({
    kind: "raw",
    contentType: "application/json",
    text: `{"email":${"[".repeat(depth)}${"]".repeat(depth)}}`
  })),
  fc.record({
    contentType: fc.constantFrom("application/json", "text/csv", "application/x-www-form-urlencoded", "multipart/form-data", "text/plain; charset=utf-16"),
    text: nastyText
  }).map((raw): Body => ({ kind: "raw", ...raw })),
  fc.record({
    name: fc.oneof(fc.constant("file"), nastyText),
    filename: fc.oneof(fc.constant("a.csv"), nastyText),
    content: fc.oneof(fc.constant("a,b\n1,2\n"), nastyText),
    closed: fc.boolean()
  }).map(({ closed, content, filename, name }): Body => ({
    kind: "multipart",
    boundary: "fuzzboundary",
    text: `--fuzzboundary\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n\r\n${content}\r\n${closed ? "--fuzzboundary--\r\n" : ""}`
  }))
)

const auth = fc.oneof(
  { weight: 4, arbitrary: fc.constant("TOKEN") },
  { weight: 1, arbitrary: fc.constant("") },
  { weight: 1, arbitrary: headerText.map((text) => `Bearer ${text}`) },
  { weight: 1, arbitrary: fc.constant("Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.") }
)

const extraHeaders = fc.dictionary(fc.constantFrom("accept", "x-request-id", "origin", "accept-encoding", "if-none-match", "range", "cookie"), headerText, {
  maxKeys: 3
})

const query = fc.dictionary(fc.constantFrom("limit", "cursor", "format", "values", "from_position", "since", "x"), nastyText, { maxKeys: 3 })

const request = fc.record({
  endpoint: fc.nat(),
  parameters: fc.array(parameter, { minLength: 3, maxLength: 3 }),
  query,
  body,
  auth,
  headers: extraHeaders,
  method: fc.option(fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"), { freq: 5 })
})

type Generated = typeof request extends fc.Arbitrary<infer T> ? T : never

const send = (generated: Generated): Promise<RawResponse & { readonly sent: string }> => {
  const endpoint = endpoints[generated.endpoint % endpoints.length]!
  let index = 0
  const path = endpoint.path.replace(/\{[^}]+\}|:[A-Za-z_]+/g, () => {
    const value = generated.parameters[index++ % 3]!
    return encodeURIComponent(value === "DATASET" ? datasetId : value)
  })
  const search = new URLSearchParams(generated.query).toString()
  const headers: Record<string, string> = { ...generated.headers }
  const authorization = generated.auth === "TOKEN" ? `Bearer ${token}` : generated.auth
  if (authorization !== "") headers.authorization = authorization
  let payload: string | undefined
  switch (generated.body.kind) {
    case "json":
      headers["content-type"] = "application/json"
      payload = JSON.stringify(generated.body.value)
      break
    case "raw":
      headers["content-type"] = generated.body.contentType
      payload = generated.body.text
      break
    case "multipart":
      headers["content-type"] = `multipart/form-data; boundary=${generated.body.boundary}`
      payload = generated.body.text
      break
    case "none":
      break
  }
  const method = generated.method ?? endpoint.method
  const target = `${path}${search === "" ? "" : `?${search}`}`
  return http(`${baseUrl}${target}`, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
    timeoutMs: answerTimeoutMs
  }).then((response) => ({ ...response, sent: `${method} ${target}` }))
}

describe("fuzzing every endpoint", () => {
  it("never answers 5xx, always answers in time, and every error is problem details", async () => {
    expect(endpoints.length).toBeGreaterThan(20)
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(request, async (generated) => {
        const response = await send(generated)
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        expect(response.status, `${response.sent} → ${response.status}: ${response.text.slice(0, 300)}\n${server.output.slice(-3000)}`).toBeLessThan(500)
        if (response.status >= 400 && response.status !== 405) {
          expect(response.header("content-type"), response.text.slice(0, 200)).toMatch(/^application\/problem\+json/)
          expect(response.json).toMatchObject({ status: response.status, code: expect.any(String), detail: expect.any(String) })
        }
      }),
      { seed, numRuns: 1500, endOnFailure: true }
    )
    // The runs reached the handlers, not only the router and the authentication.
    expect([...statuses.keys()].some((status) => status < 300)).toBe(true)
    expect(statuses.get(422) ?? 0).toBeGreaterThan(0)
  }, 600_000)

  it("the server is healthy afterwards and the data it had is intact", async () => {
    expect((await http(`${baseUrl}/health`, { timeoutMs: 5_000 })).status).toBe(200)
    const dataset = await http(`${baseUrl}/datasets/${keptId}/download`, { headers: { authorization: `Bearer ${token}` }, timeoutMs: 10_000 })
    expect(dataset.status).toBe(200)
    expect(dataset.text.split(/\r?\n/)).toEqual(["a,b,c", "1,x,true", "2,y,false", "3,x,true", ""])
  }, 60_000)
})
