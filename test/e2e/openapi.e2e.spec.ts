// The OpenAPI document the gateway serves (GET /openapi.json) against what the gateway answers: a run through the
// API (accounts, upload, list pages, profile, sensitive-data scan, generation, cancellation, sample, DP validation,
// quick evaluation, evaluation run, report, download, audit feed, a few refusals) where every response's status must
// be one the document declares for that operation, its content type one declared for that status, its body valid
// against the declared JSON Schema, and every header the document requires for that status present.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js"
import addFormatsPlugin from "ajv-formats"
import { bearer, goodPassword, http, type RawRequest, type RawResponse, uniqueEmail } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { multipart, realDataset } from "../support/upload.ts"

interface MediaType {
  readonly schema?: unknown
}
interface DeclaredResponse {
  readonly content?: Readonly<Record<string, MediaType>>
  readonly headers?: Readonly<Record<string, { readonly required?: boolean }>>
}
interface Operation {
  readonly responses: Readonly<Record<string, DeclaredResponse>>
}
interface Document {
  readonly paths: Readonly<Record<string, Readonly<Record<string, Operation>>>>
  readonly components: unknown
}

// ajv-formats is CommonJS: its default export is the plugin under ESM interop.
const addFormats = addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020

const auditorEmail = uniqueEmail("openapi-auditor")

let server: RunningServer
/** Every job outlasts its wait here (1 ms): the 202 answers. */
let impatient: RunningServer
let document: Document
let ajv: Ajv2020
const validators = new Map<string, ValidateFunction>()
let owner: string
let auditor: string

beforeAll(async () => {
  const common = {
    AUTH_RATE_LIMIT_PER_MINUTE: "10000",
    RATE_LIMIT_PER_MINUTE: "100000",
    READ_YOUR_WRITES_TIMEOUT: "60 seconds",
    GENERATION_CONCURRENCY: "1"
  }
  const [patientStart, impatientStart] = await Promise.allSettled([
    startServer({ runtime: "node", env: { ...common, AUDITOR_EMAILS: auditorEmail, EVALUATION_TIMEOUT: "150 seconds" }, readyTimeoutMs: 150_000 }),
    startServer({
      runtime: "node",
      env: {
        ...common,
        UPLOAD_INGEST_TIMEOUT: "1 millis",
        PROFILE_TIMEOUT: "1 millis",
        PII_SCAN_TIMEOUT: "1 millis",
        GENERATOR_CANCEL_TIMEOUT: "1 millis",
        EVALUATION_TIMEOUT: "1 millis"
      },
      readyTimeoutMs: 150_000
    })
  ])
  if (patientStart.status === "fulfilled") server = patientStart.value
  if (impatientStart.status === "fulfilled") impatient = impatientStart.value
  for (const outcome of [patientStart, impatientStart]) if (outcome.status === "rejected") throw outcome.reason
  const served = await http(`${server.baseUrl}/openapi.json`)
  expect(served.status, served.text).toBe(200)
  document = served.json as Document
  // The document is OpenAPI 3.1: its schemas are JSON Schema 2020-12. strict: false lets `components` ride along
  // beside each response schema so that its `#/components/schemas/...` references resolve.
  ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }))
  owner = await account(uniqueEmail("openapi-owner"))
  auditor = await account(auditorEmail)
}, 200_000)

afterAll(async () => {
  await Promise.all([server?.stop("SIGTERM", 60_000), impatient?.stop("SIGTERM", 60_000)])
}, 90_000)

/** Registers and logs in through the API (each response checked); the access token. */
const account = async (email: string, on: RunningServer = server) => {
  await call("post", "/auth/register", {}, { body: { email, password: goodPassword }, on })
  const login = await call("post", "/auth/login", {}, { body: { email, password: goodPassword }, on })
  expect(login.status, login.text).toBe(200)
  return (login.json as { readonly access_token: string }).access_token
}

const validatorOf = (key: string, schema: unknown) => {
  let validate = validators.get(key)
  if (validate === undefined) {
    validate = ajv.compile({ ...(schema as object), components: document.components })
    validators.set(key, validate)
  }
  return validate
}

/** `text/csv; charset=utf-8` and `text/csv;charset=UTF-8` are one media type; so are the declared and sent forms. */
const mediaTypeOf = (contentType: string) => contentType.split(";")[0]!.trim().toLowerCase()

/** Fails unless `response` is one the document declares for `method` `template`. */
const expectDeclared = (method: string, template: string, response: RawResponse) => {
  const operation = document.paths[template]?.[method]
  expect(operation, `${method.toUpperCase()} ${template} is not in the document`).toBeDefined()
  const where = `${method.toUpperCase()} ${template} answered ${response.status}`
  const declared = operation!.responses[String(response.status)]
  expect(declared, `${where}, a status the document does not declare: ${response.text.slice(0, 300)}`).toBeDefined()
  for (const [name, header] of Object.entries(declared!.headers ?? {})) {
    if (header.required === true) expect(response.header(name), `${where} without its required ${name} header`).toBeDefined()
  }
  if (declared!.content === undefined) {
    expect(response.text, `${where} with a body where the document declares none`).toBe("")
    return
  }
  const sent = mediaTypeOf(response.header("content-type") ?? "")
  const [contentType, media] = Object.entries(declared!.content).find(([declaredType]) => mediaTypeOf(declaredType) === sent) ??
    // Every error leaves the http layer as application/problem+json (http/problemDetails.ts); the document gives its
    // schema under the contract's JSON media type.
    (response.status >= 400 && sent === "application/problem+json"
      ? Object.entries(declared!.content).find(([declaredType]) => mediaTypeOf(declaredType) === "application/json") ?? []
      : [])
  expect(media, `${where} as ${sent}; declared: ${Object.keys(declared!.content).join(", ")}`).toBeDefined()
  const validate = validatorOf(`${method} ${template} ${response.status} ${contentType}`, media!.schema ?? {})
  for (const body of bodiesOf(sent, response)) {
    expect(body, `${where} with a body that is not ${sent}: ${response.text.slice(0, 300)}`).toBeDefined()
    const valid = validate(body)
    expect(valid, `${where}: the body does not match the declared schema: ${ajv.errorsText(validate.errors)}`).toBe(true)
  }
}

/** What the declared schema describes: the JSON body, each line of NDJSON (the document gives the element), or text. */
const bodiesOf = (mediaType: string, response: RawResponse): ReadonlyArray<unknown> => {
  if (mediaType === "application/x-ndjson") {
    const lines = response.text.split("\n").filter((line) => line !== "")
    expect(lines.length, "an NDJSON export of a feed with events").toBeGreaterThan(0)
    return lines.map((line) => JSON.parse(line) as unknown)
  }
  return [mediaType === "application/json" || mediaType === "application/problem+json" ? response.json : response.text]
}

/** One request to the operation at `template` (parameters filled in), its response checked against the document. */
const call = async (
  method: "get" | "post" | "delete",
  template: string,
  params: Readonly<Record<string, string>>,
  options: RawRequest & { readonly query?: string; readonly on?: RunningServer } = {}
) => {
  const { on = server, query = "", ...request } = options
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!))
  const response = await http(`${on.baseUrl}${path}${query}`, { method: method.toUpperCase(), timeoutMs: 180_000, ...request })
  expectDeclared(method, template, response)
  return response
}

/** Follows the page's `Link: <...>; rel="next"`; undefined on the last page. */
const nextPage = (response: RawResponse) => /^<[^?>]*(\?[^>]*)>; rel="next"$/.exec(response.header("link") ?? "")?.[1]

const uploadFile = async (token: string, filename: string, content: Buffer, on: RunningServer = server) => {
  const form = multipart([{ name: "file", filename, contentType: "text/csv", content }])
  return call("post", "/datasets/upload", {}, { headers: { ...bearer(token), "content-type": form.contentType }, body: form.body, on })
}

const uploadedId = (response: RawResponse) => {
  expect(response.status, response.text).toBe(201)
  const id = (response.json as { readonly id: string }).id
  expect(response.header("location")).toBe(`/datasets/${id}`)
  return id
}

const poll = async (
  fetch: () => Promise<RawResponse>,
  done: (response: RawResponse) => boolean,
  what: string,
  timeoutMs = 180_000
) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const response = await fetch()
    if (done(response)) return response
    if (Date.now() > deadline) throw new Error(`${what} not done after ${timeoutMs} ms: ${response.status} ${response.text.slice(0, 300)}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

const statusOf = (response: RawResponse) => (response.json as { readonly status: string }).status

describe("the OpenAPI document against the responses of a run through the API", () => {
  let datasetId: string
  let generatorId: string

  it("documents the health, account and dataset responses", async () => {
    await call("get", "/health", {})
    await call("get", "/auth/me", {}, { headers: bearer(owner) })
    await call("get", "/auth/me", {}, { headers: bearer("not-a-token") })
    datasetId = uploadedId(await uploadFile(owner, "penguins.csv", realDataset("penguins")))
    uploadedId(await uploadFile(owner, "penguins-again.csv", realDataset("penguins")))

    const first = await call("get", "/datasets/", {}, { headers: bearer(owner), query: "?limit=1" })
    const next = nextPage(first)
    expect(next, "a first page of 1 of 2 datasets links the next").toBeDefined()
    await call("get", "/datasets/", {}, { headers: bearer(owner), query: next! })
    await call("get", "/datasets/", {}, { headers: bearer(owner), query: "?limit=0" })
    await call("get", "/datasets/{dataset_id}", { dataset_id: datasetId }, { headers: bearer(owner) })
    await call("get", "/datasets/{dataset_id}", { dataset_id: "no-such-dataset" }, { headers: bearer(owner) })
    await call("get", "/datasets/{dataset_id}/download", { dataset_id: datasetId }, { headers: bearer(owner) })

    const profiled = await call("post", "/datasets/{dataset_id}/profile", { dataset_id: datasetId }, { headers: bearer(owner) })
    expect(profiled.status, profiled.text).toBe(200)
    await call("get", "/datasets/{dataset_id}/profile", { dataset_id: datasetId }, { headers: bearer(owner) })

    const scanned = await call("post", "/datasets/{dataset_id}/pii-detection", { dataset_id: datasetId }, { headers: bearer(owner) })
    expect(scanned.status, scanned.text).toBe(200)
    await call("get", "/datasets/{dataset_id}/pii-flags", { dataset_id: datasetId }, { headers: bearer(owner) })
  }, 240_000)

  it("documents the generator responses: generate, poll, list pages, cancel, sample, DP validation", async () => {
    const started = await call("post", "/generators/dataset/{dataset_id}/generate", { dataset_id: datasetId }, {
      headers: bearer(owner),
      body: { generator_type: "gaussian_copula", num_rows: 200, seed: 7 }
    })
    expect(started.status, started.text).toBe(202)
    generatorId = (started.json as { readonly generator_id: string }).generator_id
    expect(started.header("location")).toBe(`/generators/${generatorId}`)
    const completed = await poll(
      () => call("get", "/generators/{generator_id}", { generator_id: generatorId }, { headers: bearer(owner) }),
      (response) => statusOf(response) !== "running",
      `generator ${generatorId}`
    )
    expect(statusOf(completed)).toBe("completed")

    const long = await call("post", "/generators/dataset/{dataset_id}/generate", { dataset_id: datasetId }, {
      headers: bearer(owner),
      body: { generator_type: "tvae", num_rows: 100, epochs: 10_000 }
    })
    const longId = (long.json as { readonly generator_id: string }).generator_id
    const cancelled = await call("post", "/generators/{generator_id}/cancel", { generator_id: longId }, { headers: bearer(owner) })
    expect(cancelled.status, cancelled.text).toBe(statusOf(cancelled) === "running" ? 202 : 200)
    await call("post", "/generators/{generator_id}/cancel", { generator_id: generatorId }, { headers: bearer(owner) })

    const first = await call("get", "/generators/", {}, { headers: bearer(owner), query: "?limit=1" })
    const next = nextPage(first)
    expect(next, "a first page of 1 of 2 generators links the next").toBeDefined()
    await call("get", "/generators/", {}, { headers: bearer(owner), query: next! })

    const sampled = await call("post", "/generators/{generator_id}/sample", { generator_id: generatorId }, {
      headers: bearer(owner),
      body: { num_rows: 50, seed: 3 }
    })
    expect(sampled.status, sampled.text).toBe(202)
    const sampleId = (sampled.json as { readonly output_dataset_id: string }).output_dataset_id
    expect(sampled.header("location")).toBe(`/datasets/${sampleId}`)
    await poll(
      () => call("get", "/datasets/{dataset_id}", { dataset_id: sampleId }, { headers: bearer(owner) }),
      (response) => response.status === 200,
      `sample ${sampleId}`
    )

    await call("post", "/generators/dp/validate-config", {}, {
      headers: bearer(owner),
      body: { dataset_id: datasetId, target_epsilon: 1, epochs: 10, batch_size: 50 }
    })
  }, 300_000)

  it("documents the evaluation responses: quick, run, record, report", async () => {
    const quick = await call("post", "/evaluations/quick/{generator_id}", { generator_id: generatorId }, { headers: bearer(owner) })
    expect([200, 202]).toContain(quick.status)
    const run = await call("post", "/evaluations/run", {}, {
      headers: bearer(owner),
      body: { generator_id: generatorId, dataset_id: datasetId, evaluation_sample_size: 200 }
    })
    expect(run.status, run.text).toBe(202)
    const evaluationId = (run.json as { readonly evaluation_id: string }).evaluation_id
    expect(run.header("location")).toBe(`/evaluations/${evaluationId}`)
    const done = await poll(
      () => call("get", "/evaluations/{evaluation_id}", { evaluation_id: evaluationId }, { headers: bearer(owner) }),
      (response) => statusOf(response) !== "running",
      `evaluation ${evaluationId}`
    )
    expect(statusOf(done), done.text).toBe("completed")
    const report = await call("get", "/evaluations/{evaluation_id}/report", { evaluation_id: evaluationId }, { headers: bearer(owner) })
    expect(report.status, report.text.slice(0, 300)).toBe(200)
    expect(report.header("content-disposition")).toBe(`inline; filename="evaluation-${evaluationId}.html"`)
  }, 300_000)

  it("documents the audit feed's pages and refusals, and a deletion", async () => {
    const first = await call("get", "/events", {}, { headers: bearer(auditor), query: "?limit=2" })
    const next = nextPage(first)
    expect(next, "a first page of 2 events links the next").toBeDefined()
    await call("get", "/events", {}, { headers: bearer(auditor), query: next! })
    const exported = await call("get", "/events", {}, { headers: bearer(auditor), query: "?format=ndjson" })
    expect(exported.header("content-type")).toMatch(/^application\/x-ndjson/)
    await call("get", "/events", {}, { headers: bearer(owner) })
    await call("get", "/events", {}, { headers: bearer(auditor), query: "?cursor=not-a-cursor" })
    await call("delete", "/datasets/{dataset_id}", { dataset_id: datasetId }, { headers: bearer(owner) })
  }, 120_000)
})

describe("the OpenAPI document against the 202 answers of jobs that outlast their wait", () => {
  it("documents the 202s of upload, profile, scan and quick evaluation, each with its Location, and a cancellation", async () => {
    const token = await account(uniqueEmail("openapi-impatient"), impatient)
    const on = impatient
    const upload = await uploadFile(token, "penguins.csv", realDataset("penguins"), on)
    expect(upload.status, upload.text).toBe(202)
    const datasetId = (upload.json as { readonly id: string }).id
    expect(upload.header("location")).toBe(`/datasets/${datasetId}`)
    await poll(
      () => call("get", "/datasets/{dataset_id}", { dataset_id: datasetId }, { headers: bearer(token), on }),
      (response) => response.status === 200 && statusOf(response) === "uploaded",
      `dataset ${datasetId}`
    )

    const profile = await call("post", "/datasets/{dataset_id}/profile", { dataset_id: datasetId }, { headers: bearer(token), on })
    expect(profile.status, profile.text).toBe(202)
    expect(profile.header("location")).toBe(`/datasets/${datasetId}/profile`)
    const scan = await call("post", "/datasets/{dataset_id}/pii-detection", { dataset_id: datasetId }, { headers: bearer(token), on })
    expect(scan.status, scan.text).toBe(202)
    expect(scan.header("location")).toBe(`/datasets/${datasetId}/pii-flags`)

    const generated = await call("post", "/generators/dataset/{dataset_id}/generate", { dataset_id: datasetId }, {
      headers: bearer(token),
      body: { generator_type: "gaussian_copula", num_rows: 100, seed: 1 },
      on
    })
    const generatorId = (generated.json as { readonly generator_id: string }).generator_id
    await poll(
      () => call("get", "/generators/{generator_id}", { generator_id: generatorId }, { headers: bearer(token), on }),
      (response) => statusOf(response) !== "running",
      `generator ${generatorId}`
    )
    const quick = await call("post", "/evaluations/quick/{generator_id}", { generator_id: generatorId }, { headers: bearer(token), on })
    expect(quick.status, quick.text).toBe(202)
    expect(quick.header("location")).toBe(`/evaluations/${(quick.json as { readonly evaluation_id: string }).evaluation_id}`)

    const long = await call("post", "/generators/dataset/{dataset_id}/generate", { dataset_id: datasetId }, {
      headers: bearer(token),
      body: { generator_type: "tvae", num_rows: 100, epochs: 10_000 },
      on
    })
    const longId = (long.json as { readonly generator_id: string }).generator_id
    // The stop usually lands within the 1 ms already: 202 only while the record is still running
    // (http/handlers/cancelAnswer.unit.spec.ts forces both answers).
    const stopping = await call("post", "/generators/{generator_id}/cancel", { generator_id: longId }, { headers: bearer(token), on })
    expect(stopping.status, stopping.text).toBe(statusOf(stopping) === "running" ? 202 : 200)
  }, 300_000)
})
