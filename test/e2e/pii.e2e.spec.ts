// Black-box end-to-end tests of sensitive-data scanning against the standalone runtime started with Node, its AI
// layer pointed at a local OpenAI-compatible test server: the basic scan of a generated customer table (spec fields,
// validated types, masked samples, no raw value anywhere in the answer), the enhanced scan with the provider
// answering, timing out, failing and breaking the schema (never a 5xx), what is sent to the provider (no value),
// pii-flags before and after, has_pii_analysis, other users, deletion, and a dataset without personal data.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { faker } from "@faker-js/faker"
import * as Contract from "@synth/contracts"
import { Schema } from "effect"
import { expectProblem, type ListItem, upload, uploaded } from "../support/datasets.ts"
import { type FakeOpenAi, startFakeOpenAi } from "../support/fakeOpenAi.ts"
import { bearer, http, type RawResponse } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { createAccount, realDataset } from "../support/upload.ts"

type Result = typeof Contract.PiiDetectionResult.Encoded

let server: RunningServer
let provider: FakeOpenAi
let baseUrl: string

beforeAll(async () => {
  provider = await startFakeOpenAi()
  server = await startServer({
    runtime: "node",
    env: {
      AUTH_RATE_LIMIT_PER_MINUTE: "10000",
      RATE_LIMIT_PER_MINUTE: "10000",
      READ_YOUR_WRITES_TIMEOUT: "60 seconds",
      OPENAI_API_KEY: "test-key",
      OPENAI_BASE_URL: provider.baseUrl,
      LLM_MODEL: "test-model",
      PII_AI_TIMEOUT: "1 second"
    },
    readyTimeoutMs: 150_000
  })
  baseUrl = server.baseUrl
}, 200_000)

afterAll(async () => {
  await server?.stop("SIGTERM", 60_000)
  await provider?.close()
}, 90_000)

/** A customer table with personal data of several kinds next to columns that hold none. */
const customers = (() => {
  faker.seed(20261122)
  const rows = Array.from({ length: 240 }, (_, index) => ({
    customer_id: String(index + 1),
    full_name: faker.person.fullName().replaceAll(",", " "),
    email: faker.internet.email().toLowerCase(),
    ssn: `${faker.number.int({ min: 100, max: 665 })}-${String(faker.number.int({ min: 1, max: 99 })).padStart(2, "0")}-${String(faker.number.int({ min: 1, max: 9999 })).padStart(4, "0")}`,
    phone: faker.phone.number({ style: "international" }),
    card_number: faker.finance.creditCardNumber({ issuer: "visa" }),
    iban: faker.finance.iban(),
    plan: faker.helpers.arrayElement(["basic", "plus", "premium"]),
    monthly_spend: faker.number.float({ min: 5, max: 500, fractionDigits: 2 }).toFixed(2),
    order_number: `ORD-${faker.string.numeric(8)}`
  }))
  const header = Object.keys(rows[0]!)
  const csv = [header.join(","), ...rows.map((row) => header.map((name) => row[name as keyof typeof row]).join(","))].join("\n")
  return { rows, csv }
})()

const sensitiveValues = customers.rows.flatMap((row) => [row.full_name, row.email, row.ssn, row.phone, row.card_number, row.iban])

const scan = (token: string, id: string, variant: "pii-detection" | "pii-detection-enhanced") =>
  http(`${baseUrl}/datasets/${id}/${variant}`, { method: "POST", headers: bearer(token), timeoutMs: 120_000 })

const flags = (token: string, id: string) => http(`${baseUrl}/datasets/${id}/pii-flags`, { headers: bearer(token) })

/** The response's result after checking the status and decoding it with the contract's schema. */
const result = (response: RawResponse): Result => {
  expect(response.status, response.text.slice(0, 500)).toBe(200)
  expect(response.header("content-type")).toMatch(/^application\/json/)
  return Schema.encodeSync(Contract.PiiDetectionResult)(Schema.decodeUnknownSync(Contract.PiiDetectionResult)(response.json))
}

const typeOf = (scanned: Result, column: string) => scanned.findings.find((finding) => finding.column === column)?.type

/** No raw value of a personal-data column appears anywhere in the text (masked samples only). */
const expectNoRawValue = (text: string) => {
  const leaked = sensitiveValues.filter((value) => text.includes(value))
  expect(leaked).toEqual([])
}

const listItem = async (token: string, id: string): Promise<ListItem> => {
  const response = await http(`${baseUrl}/datasets/`, { headers: bearer(token) })
  expect(response.status).toBe(200)
  return (response.json as ReadonlyArray<ListItem>).find((item) => item.id === id)!
}

describe("the basic scan", () => {
  let token: string
  let id: string
  beforeAll(async () => {
    token = await createAccount(baseUrl, "pii-basic")
    id = uploaded(await upload(baseUrl, token, "customers.csv", customers.csv)).id
  }, 120_000)

  it("answers pii-flags with 404 and how to scan before any scan, and has_pii_analysis false", async () => {
    const problem = expectProblem(await flags(token, id), 404, "not_found")
    expect(problem.detail).toContain(`/datasets/${id}/pii-detection`)
    expect((await listItem(token, id)).has_pii_analysis).toBe(false)
  })

  it("flags the validated personal-data columns with masked samples and leaves the others alone", async () => {
    const response = await scan(token, id, "pii-detection")
    const scanned = result(response)
    expect(scanned.dataset_id).toBe(id)
    expect(scanned.scan).toBe("basic")
    expect(scanned.ai_layer).toBeNull()
    expect(scanned.pii_detected).toBe(true)
    expect(scanned.risk_level).toBe("high")
    expect(scanned.overall_risk_assessment.level).toBe("high")
    expect(scanned.overall_risk_assessment.actions_required.length).toBeGreaterThan(0)
    expect(scanned.total_rows).toBe(240)
    expect(scanned.scanned_rows).toBe(240)
    expect(typeOf(scanned, "email")).toBe("email_address")
    expect(typeOf(scanned, "ssn")).toBe("social_security_number")
    expect(typeOf(scanned, "card_number")).toBe("credit_card_number")
    expect(typeOf(scanned, "iban")).toBe("iban")
    expect(typeOf(scanned, "phone")).toBe("phone_number")
    for (const column of ["plan", "monthly_spend", "order_number"]) expect(typeOf(scanned, column), column).toBeUndefined()
    for (const finding of scanned.findings) {
      expect(finding.confidence).toBeGreaterThan(0)
      expect(finding.confidence).toBeLessThanOrEqual(1)
      expect(finding.recommendation.length).toBeGreaterThan(10)
      expect(finding.sample_values.length).toBeGreaterThan(0)
      expect(finding.sample_values.length).toBeLessThanOrEqual(3)
    }
    expect(scanned.findings.find((finding) => finding.column === "ssn")!.sample_values[0]).toMatch(/^\*\*\*-\*\*-\d{4}$/)
    expectNoRawValue(response.text)
  }, 120_000)

  it("stores the result: pii-flags answers it and the list says has_pii_analysis", async () => {
    const stored = await flags(token, id)
    expect(stored.status, stored.text.slice(0, 300)).toBe(200)
    const body = Schema.decodeUnknownSync(Contract.PiiFlags)(stored.json)
    expect(body.dataset_id).toBe(id)
    expect(body.pii_detected).toBe(true)
    expect(body.risk_level).toBe("high")
    expect(body.basic?.findings.length).toBeGreaterThanOrEqual(5)
    expect(body.enhanced).toBeNull()
    expect((await listItem(token, id)).has_pii_analysis).toBe(true)
    expectNoRawValue(stored.text)
  })

  it("hides another user's dataset and its results (404), and a deleted dataset's", async () => {
    const other = await createAccount(baseUrl, "pii-other")
    expectProblem(await scan(other, id, "pii-detection"), 404, "not_found")
    expectProblem(await flags(other, id), 404, "not_found")
    const doomed = uploaded(await upload(baseUrl, token, "doomed.csv", customers.csv)).id
    result(await scan(token, doomed, "pii-detection"))
    expect((await http(`${baseUrl}/datasets/${doomed}`, { method: "DELETE", headers: bearer(token) })).status).toBe(204)
    expectProblem(await flags(token, doomed), 404, "not_found")
    expectProblem(await scan(token, doomed, "pii-detection"), 404, "not_found")
  }, 120_000)

  it("finds no personal data in diamonds", async () => {
    const diamonds = uploaded(await upload(baseUrl, token, "diamonds.csv", realDataset("diamonds"))).id
    const scanned = result(await scan(token, diamonds, "pii-detection"))
    expect(scanned.pii_detected).toBe(false)
    expect(scanned.findings).toEqual([])
    expect(scanned.risk_level).toBe("low")
    expect(scanned.scanned_rows).toBe(10_000)
    expect(scanned.total_rows).toBe(53_940)
  }, 120_000)
})

describe("the enhanced scan with an OpenAI-compatible provider", () => {
  let token: string
  let id: string
  let basic: Result
  beforeAll(async () => {
    token = await createAccount(baseUrl, "pii-enhanced")
    id = uploaded(await upload(baseUrl, token, "customers.csv", customers.csv)).id
    basic = result(await scan(token, id, "pii-detection"))
  }, 120_000)

  it("merges the model's verdicts and sends it column names and value shapes, never a value", async () => {
    provider.behave({
      kind: "classify",
      typeOf: (column) => (column === "full_name" ? { type: "person_name", confidence: 0.93 } : { type: "none", confidence: 0.6 })
    })
    const before = provider.requests.length
    const response = await scan(token, id, "pii-detection-enhanced")
    const scanned = result(response)
    expect(scanned.scan).toBe("enhanced")
    expect(scanned.ai_layer).toEqual({ kind: "openai", model: "test-model", applied: true })
    expect(scanned.warnings).toEqual([])
    const name = scanned.findings.find((finding) => finding.column === "full_name")
    expect(name?.type).toBe("person_name")
    expect(name?.methods).toContain("ai")
    // The checksum-validated findings stand although the model called those columns "none".
    expect(typeOf(scanned, "card_number")).toBe("credit_card_number")
    expect(typeOf(scanned, "iban")).toBe("iban")
    expectNoRawValue(response.text)

    const sent = provider.requests.slice(before)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.path).toBe("/v1/chat/completions")
    expect(sent[0]!.authorization).toBe("Bearer test-key")
    expect(sent[0]!.body.model).toBe("test-model")
    expect(sent[0]!.body.response_format).toMatchObject({ type: "json_schema" })
    const text = JSON.stringify(sent[0]!.body)
    for (const column of Object.keys(customers.rows[0]!)) expect(text).toContain(column)
    expectNoRawValue(text)
  }, 120_000)

  for (const [label, behaviour] of [
    ["times out", { kind: "delay", ms: 4_000 }],
    ["answers 500", { kind: "status", status: 500 }],
    ["answers 429", { kind: "status", status: 429 }],
    ["breaks the JSON schema", { kind: "malformed" }]
  ] as const) {
    it(`answers the basic result with a warning when the provider ${label}`, async () => {
      provider.behave(behaviour)
      const scanned = result(await scan(token, id, "pii-detection-enhanced"))
      expect(scanned.scan).toBe("enhanced")
      expect(scanned.ai_layer).toEqual({ kind: "openai", model: "test-model", applied: false })
      expect(scanned.warnings).toHaveLength(1)
      expect(scanned.warnings[0]).toMatch(/AI layer not applied/)
      expect(scanned.findings).toEqual(basic.findings)
    }, 60_000)
  }

  it("keeps both scans' latest results in pii-flags", async () => {
    const body = Schema.decodeUnknownSync(Contract.PiiFlags)((await flags(token, id)).json)
    expect(body.basic?.scan).toBe("basic")
    expect(body.enhanced?.scan).toBe("enhanced")
    expect(body.running).toEqual([])
  })
})
