// Black-box tests of operations against the standalone runtime started with Node: GET /metrics (behind
// METRICS_TOKEN) exposes each family and its values move with the work (request histogram by route template,
// event-log appends, generation queue and running jobs with GENERATION_CONCURRENCY=1, projector lag per
// projection, process figures); the logs are one JSON object a line, carry the request id while serving a request
// and the correlation id while handling its events, and never show an email, a password or a token.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { uploaded, upload } from "../support/datasets.ts"
import { accepted, requestGeneration } from "../support/generators.ts"
import { bearer, goodPassword, http, uniqueEmail } from "../support/http.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { multipart, realDataset } from "../support/upload.ts"

const metricsToken = "metrics-token-for-the-operations-test"

let server: RunningServer
let baseUrl: string
const email = uniqueEmail("operations")
let accessToken: string
let refreshToken: string

beforeAll(async () => {
  server = await startServer({
    runtime: "node",
    env: {
      LOG_FORMAT: "json",
      METRICS_TOKEN: metricsToken,
      GENERATION_CONCURRENCY: "1",
      READ_YOUR_WRITES_TIMEOUT: "60 seconds"
    },
    readyTimeoutMs: 150_000
  })
  baseUrl = server.baseUrl
  const registered = await http(`${baseUrl}/auth/register`, { body: { email, password: goodPassword } })
  expect(registered.status, registered.text).toBe(201)
  const login = await http(`${baseUrl}/auth/login`, { body: { email, password: goodPassword } })
  expect(login.status, login.text).toBe(200)
  ;({ access_token: accessToken, refresh_token: refreshToken } = login.json as { access_token: string; refresh_token: string })
  const refreshed = await http(`${baseUrl}/auth/refresh`, { method: "POST", headers: bearer(refreshToken) })
  expect(refreshed.status, refreshed.text).toBe(200)
  const wrongPassword = await http(`${baseUrl}/auth/login`, { body: { email, password: "not the password at all" } })
  expect(wrongPassword.status).toBe(401)
}, 240_000)

afterAll(async () => {
  await server?.stop("SIGTERM", 60_000)
}, 90_000)

type Samples = ReadonlyArray<{ readonly name: string; readonly labels: Readonly<Record<string, string>>; readonly value: number }>

const parseSamples = (text: string): Samples =>
  text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
      if (match === null) throw new Error(`not a Prometheus sample line: ${line}`)
      const labels: Record<string, string> = {}
      for (const [, key, value] of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
        labels[key!] = value!
      }
      return { name: match[1]!, labels, value: Number(match[3]) }
    })

const scrape = async () => {
  const response = await http(`${baseUrl}/metrics`, { headers: bearer(metricsToken) })
  expect(response.status, response.text.slice(0, 300)).toBe(200)
  expect(response.header("content-type")).toMatch(/^text\/plain; version=0\.0\.4/)
  return { text: response.text, samples: parseSamples(response.text) }
}

const valueOf = (samples: Samples, name: string, labels: Readonly<Record<string, string>> = {}) =>
  samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0)

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms))

interface LogRecord {
  readonly timestamp: string
  readonly level: string
  readonly service: string
  readonly message: string
  readonly [annotation: string]: unknown
}

const logRecords = (): ReadonlyArray<LogRecord> =>
  server.output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      try {
        return JSON.parse(line) as LogRecord
      } catch {
        throw new Error(`a log line that is not JSON: ${line}`)
      }
    })

describe("GET /metrics", () => {
  it("answers only the METRICS_TOKEN bearer", async () => {
    const refused = await http(`${baseUrl}/metrics`)
    expect(refused.status).toBe(401)
    expect(refused.json).toMatchObject({ code: "invalid_token", status: 401 })
    expect(refused.header("www-authenticate")).toMatch(/^Bearer /)
    expect((await http(`${baseUrl}/metrics`, { headers: bearer("wrong-token") })).status).toBe(401)
    expect((await http(`${baseUrl}/metrics`, { headers: bearer(accessToken) })).status).toBe(401)
  })

  it("a request adds one observation to the histogram of its route template and status, never of its raw path", async () => {
    const id = "0193b7e4-1f2a-7c3d-8e4f-5a6b7c8d9e0f"
    const series = { method: "GET", route: "/datasets/:dataset_id", status: "404" }
    const before = await scrape()
    expect((await http(`${baseUrl}/datasets/${id}?secret=x`, { headers: bearer(accessToken) })).status).toBe(404)
    const after = await scrape()
    expect(valueOf(after.samples, "http_request_duration_seconds_count", series) - valueOf(before.samples, "http_request_duration_seconds_count", series)).toBe(1)
    expect(valueOf(after.samples, "http_request_duration_seconds_bucket", { ...series, le: "+Inf" })).toBe(
      valueOf(after.samples, "http_request_duration_seconds_count", series)
    )
    expect(after.text).toContain("# TYPE http_request_duration_seconds histogram")
    expect(after.text).not.toContain(id)
    expect(after.text).not.toContain("secret")
    expect(valueOf(after.samples, "http_request_duration_seconds_count", { route: "/auth/register", status: "201" })).toBeGreaterThanOrEqual(1)
  })

  it("counts event-log appends by topic and type, and shows every projection's lag", async () => {
    const before = await scrape()
    const appends = { topic: "synth.dataset", type: "dataset.uploaded" }
    const dataset = uploaded(await upload(baseUrl, accessToken, "penguins.csv", realDataset("penguins")))
    expect(dataset.id).toMatch(/^[0-9a-f-]{36}$/)
    const after = await scrape()
    expect(after.text).toContain("# TYPE eventlog_appends_total counter")
    expect(valueOf(after.samples, "eventlog_appends_total", appends) - valueOf(before.samples, "eventlog_appends_total", appends)).toBe(1)
    expect(valueOf(after.samples, "eventlog_appends_total", { topic: "synth.dataset", type: "dataset.ingested" })).toBeGreaterThanOrEqual(1)
    expect(after.text).toContain("# TYPE projector_lag_events gauge")
    const lags = after.samples.filter((sample) => sample.name === "projector_lag_events")
    expect(new Set(lags.map((sample) => sample.labels["projection"]))).toEqual(new Set(["users", "datasets", "generators", "evaluations", "audit"]))
    for (const lag of lags) expect(lag.value).toBeGreaterThanOrEqual(0)
    expect(valueOf(after.samples, "process_resident_memory_bytes")).toBeGreaterThan(0)
    expect(valueOf(after.samples, "process_cpu_seconds_total")).toBeGreaterThan(0)
  }, 120_000)

  it("with GENERATION_CONCURRENCY=1 and two jobs, shows one running and one queued, and none once cancelled", async () => {
    const idle = await scrape()
    expect(valueOf(idle.samples, "generation_jobs_running")).toBe(0)
    expect(valueOf(idle.samples, "generation_jobs_queued")).toBe(0)
    const diamonds = uploaded(await upload(baseUrl, accessToken, "diamonds.csv", realDataset("diamonds"))).id
    const long = { generator_type: "gaussian_copula", num_rows: 3_000_000 }
    const first = accepted(await requestGeneration(baseUrl, accessToken, diamonds, long))
    const second = accepted(await requestGeneration(baseUrl, accessToken, diamonds, long))
    const deadline = Date.now() + 60_000
    let busy = await scrape()
    while (valueOf(busy.samples, "generation_jobs_running") + valueOf(busy.samples, "generation_jobs_queued") < 2 && Date.now() < deadline) {
      await sleep(200)
      busy = await scrape()
    }
    expect(valueOf(busy.samples, "generation_jobs_running")).toBe(1)
    expect(valueOf(busy.samples, "generation_jobs_queued")).toBe(1)
    for (const job of [second, first]) {
      const cancelled = await http(`${baseUrl}/generators/${job.generator_id}/cancel`, { method: "POST", headers: bearer(accessToken) })
      expect(cancelled.status, cancelled.text).toBe(200)
    }
    let drained = await scrape()
    while (valueOf(drained.samples, "generation_jobs_running") + valueOf(drained.samples, "generation_jobs_queued") > 0 && Date.now() < deadline) {
      await sleep(200)
      drained = await scrape()
    }
    expect(valueOf(drained.samples, "generation_jobs_running")).toBe(0)
    expect(valueOf(drained.samples, "generation_jobs_queued")).toBe(0)
  }, 150_000)
})

describe("logs", () => {
  it("are one JSON object a line with timestamp, level, service and message", () => {
    const records = logRecords()
    expect(records.length).toBeGreaterThan(5)
    for (const record of records) {
      expect(new Date(record.timestamp).toISOString()).toBe(record.timestamp)
      expect(["trace", "debug", "info", "warn", "error", "fatal"]).toContain(record.level)
      expect(record.service).toBe("standalone")
      expect(typeof record.message).toBe("string")
    }
  })

  it("write one access line per request with the route template, status, duration and the request id", async () => {
    const requestId = `ops-${Date.now()}-access`
    const response = await http(`${baseUrl}/datasets/?limit=1&access_token=leak`, { headers: { ...bearer(accessToken), "x-request-id": requestId } })
    expect(response.status).toBe(200)
    await sleep(100)
    const lines = logRecords().filter((record) => record["requestId"] === requestId)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ message: "request served", method: "GET", route: "/datasets/", status: 200 })
    expect(typeof lines[0]?.["durationMs"]).toBe("number")
    expect(server.output).not.toContain("access_token=leak")
  })

  it("carry the request's id as correlationId on the lines written while its events are handled", async () => {
    const requestId = `ops-${Date.now()}-upload`
    const { body, contentType } = multipart([{ name: "file", filename: "tiny.csv", content: "a,b\n1,2\n3,4\n" }])
    const response = await http(`${baseUrl}/datasets/upload`, {
      method: "POST",
      headers: { ...bearer(accessToken), "x-request-id": requestId, "content-type": contentType },
      body
    })
    expect(response.status, response.text).toBe(201)
    const deadline = Date.now() + 30_000
    let handled = logRecords().filter((record) => record["correlationId"] === requestId)
    while (handled.length === 0 && Date.now() < deadline) {
      await sleep(200)
      handled = logRecords().filter((record) => record["correlationId"] === requestId)
    }
    expect(handled.length).toBeGreaterThan(0)
    for (const record of handled) {
      expect(record["eventId"]).toMatch(/^[0-9a-f-]{36}$/)
      expect(typeof record["eventType"]).toBe("string")
    }
  }, 60_000)

  it("never show an email, a password or a token from the auth flow", () => {
    const output = server.output
    expect(output).not.toContain(email)
    expect(output).not.toContain(goodPassword)
    expect(output).not.toContain("not the password at all")
    expect(output).not.toContain(accessToken)
    expect(output).not.toContain(refreshToken)
    expect(output).not.toContain(metricsToken)
  })
})
