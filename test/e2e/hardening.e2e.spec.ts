// Requests the service must answer whatever the client does (issue 24): during start-up, with malformed multipart
// bodies and with bodies that stop arriving. Every exchange here has a client-side deadline, so a request the server
// leaves unanswered fails the test instead of hanging it.
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { connect } from "node:net"
import { expectProblem } from "../support/datasets.ts"
import { http, type RawResponse } from "../support/http.ts"
import { freePort, type RunningServer, startServer } from "../support/server.ts"
import { createAccount } from "../support/upload.ts"

const bodyIdleSeconds = 2

let server: RunningServer
let baseUrl: string
let token: string

interface RawAnswer {
  /** The status line's code; null when the connection closed with no answer. */
  readonly status: number | null
  readonly head: string
  readonly body: string
  /** Whether the server closed the connection (by the deadline). */
  readonly closed: boolean
  readonly elapsedMs: number
}

/**
 * Writes `request` (the bytes as given, nothing added) on a fresh connection and reads until the server closes it or
 * `deadlineMs` passes: exactly what a client that never finishes its body sees.
 */
const rawExchange = (port: number, request: string, deadlineMs: number): Promise<RawAnswer> =>
  new Promise((resolve, reject) => {
    const started = Date.now()
    const socket = connect(port, "127.0.0.1", () => socket.write(request))
    let text = ""
    const finish = (closed: boolean) => {
      clearTimeout(deadline)
      socket.destroy()
      const [head = "", body = ""] = text.split("\r\n\r\n", 2)
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]
      resolve({ status: status === undefined ? null : Number(status), head, body, closed, elapsedMs: Date.now() - started })
    }
    const deadline = setTimeout(() => finish(false), deadlineMs)
    socket.setEncoding("utf8")
    socket.on("data", (chunk: string) => (text += chunk))
    socket.once("close", () => finish(true))
    socket.once("error", (error) => (text === "" ? reject(error) : finish(true)))
  })

const portOf = (url: string) => Number(new URL(url).port)

const uploadHead = (contentType: string, contentLength: number) =>
  `POST /datasets/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
  `Content-Type: ${contentType}\r\nContent-Length: ${contentLength}\r\n\r\n`

const filePart = (boundary: string, disposition = `form-data; name="file"; filename="a.csv"`) =>
  `--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: text/csv\r\n\r\na,b\n1,2\n`

const postUpload = (contentType: string, body: string) =>
  http(`${baseUrl}/datasets/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
    body,
    timeoutMs: 20_000
  })

beforeAll(async () => {
  server = await startServer({ runtime: "node", env: { BODY_IDLE_TIMEOUT: `${bodyIdleSeconds} seconds` } })
  baseUrl = server.baseUrl
  token = await createAccount(baseUrl, "hardening")
}, 120_000)

afterAll(async () => {
  await server?.stop()
})

describe("start-up", () => {
  it("answers every request sent while it starts: 503 with Retry-After until ready, then 200; none is left waiting", async () => {
    const port = await freePort()
    const starting = startServer({ runtime: "node", env: { PORT: String(port) } })
    let ready = false
    const answers: Array<RawResponse | "refused"> = []
    const stream = (async () => {
      while (!ready) {
        // Three seconds is far more than any answer takes; a request left unanswered rejects here.
        const answer = await http(`http://127.0.0.1:${port}/health`, { timeoutMs: 3_000 }).catch((error: NodeJS.ErrnoException) => {
          if (error.code === "ECONNREFUSED") return "refused" as const
          throw error
        })
        answers.push(answer)
        await new Promise((resolveTick) => setTimeout(resolveTick, 20))
      }
    })()
    const started = await starting
    ready = true
    try {
      await stream
      const answered = answers.filter((answer): answer is RawResponse => answer !== "refused")
      // How many meet the window between the port opening and the API being attached depends on the machine's
      // speed (guardedServer.unit.spec.ts covers the 503 itself); what must hold is that each got an answer.
      expect(answered.length, "answers while starting").toBeGreaterThan(0)
      const early = answered.filter((answer) => answer.status === 503)
      for (const answer of early) {
        expectProblem(answer, 503, "service_unavailable")
        expect(answer.header("retry-after")).toBe("1")
        expect(answer.header("x-request-id")).toBeTruthy()
      }
      expect(answered.every((answer) => answer.status === 503 || answer.status === 200)).toBe(true)
      expect((await http(`${started.baseUrl}/health`, { timeoutMs: 3_000 })).status).toBe(200)
    } finally {
      await started.stop()
    }
  }, 180_000)
})

describe("liveness and readiness", () => {
  it("GET /ready answers 200 ready once the service can take traffic, without a token; both paths are in the OpenAPI document", async () => {
    const ready = await http(`${baseUrl}/ready`, { timeoutMs: 5_000 })
    expect(ready.status, ready.text).toBe(200)
    expect(ready.json).toMatchObject({ status: "ready", service: expect.any(String), timestamp: expect.any(String) })
    const paths = ((await http(`${baseUrl}/openapi.json`, { timeoutMs: 5_000 })).json as { paths: Record<string, unknown> }).paths
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(["/health", "/ready"]))
  })
})

describe("malformed multipart bodies get a prompt 4xx in the one error shape", () => {
  it("multipart/form-data without a boundary → 400 malformed_request", async () => {
    const response = await postUpload("multipart/form-data", `${filePart("x")}\r\n--x--\r\n`)
    expectProblem(response, 400, "malformed_request")
    expect((response.json as { detail: string }).detail).toMatch(/boundary/)
  })

  it("a boundary that never appears in the body → 400 missing_file", async () => {
    expectProblem(await postUpload("multipart/form-data; boundary=y", `${filePart("x")}\r\n--x--\r\n`), 400, "missing_file")
  })

  it("a complete body that ends without its closing boundary → 400 missing_file within seconds", async () => {
    const started = Date.now()
    expectProblem(await postUpload("multipart/form-data; boundary=x", filePart("x")), 400, "missing_file")
    expect(Date.now() - started).toBeLessThan(15_000)
  })

  it("a part without a name, and a body with no parts at all → 400 missing_file", async () => {
    expectProblem(
      await postUpload("multipart/form-data; boundary=x", `${filePart("x", `form-data; filename="a.csv"`)}\r\n--x--\r\n`),
      400,
      "missing_file"
    )
    expectProblem(await postUpload("multipart/form-data; boundary=x", "--x--\r\n"), 400, "missing_file")
  })

  it("nothing of those was stored: the list is empty and the server healthy", async () => {
    const list = await http(`${baseUrl}/datasets/`, { headers: { authorization: `Bearer ${token}` }, timeoutMs: 10_000 })
    expect(list.status).toBe(200)
    expect(list.json).toEqual([])
    expect((await http(`${baseUrl}/health`, { timeoutMs: 3_000 })).status).toBe(200)
  })
})

describe("stalled bodies", () => {
  it("an upload whose body stops arriving → 408 request_timeout after the idle time, and the connection is closed", async () => {
    const body = filePart("x")
    const answer = await rawExchange(portOf(baseUrl), uploadHead("multipart/form-data; boundary=x", body.length + 500) + body, 20_000)
    expect(answer.status, answer.head).toBe(408)
    expect(answer.closed).toBe(true)
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(bodyIdleSeconds * 1000 - 100)
    expect(answer.elapsedMs).toBeLessThan(bodyIdleSeconds * 1000 + 5_000)
    expect(answer.head).toMatch(/content-type: application\/problem\+json/i)
    expect(JSON.parse(answer.body)).toMatchObject({ status: 408, code: "request_timeout", type: "/errors/request_timeout" })
  })

  it("a JSON body that stops half way → 408", async () => {
    const head = "POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n"
    const answer = await rawExchange(portOf(baseUrl), `${head}{"email":`, 20_000)
    expect(answer.status, answer.head).toBe(408)
    expect(answer.closed).toBe(true)
  })

  it("a slow upload that keeps sending is not cut: a chunk every second, for longer than the idle time", async () => {
    const rows = Array.from({ length: 6 }, (_, index) => `${index},${index * 2}\n`)
    const boundary = "slowboundary"
    const opening = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.csv"\r\nContent-Type: text/csv\r\n\r\na,b\n`
    const closing = `\r\n--${boundary}--\r\n`
    const total = Buffer.byteLength(opening) + rows.join("").length + Buffer.byteLength(closing)
    const answer = await new Promise<RawAnswer>((resolve, reject) => {
      const started = Date.now()
      const socket = connect(portOf(baseUrl), "127.0.0.1", async () => {
        socket.write(uploadHead(`multipart/form-data; boundary=${boundary}`, total) + opening)
        for (const row of rows) {
          await new Promise((resolveTick) => setTimeout(resolveTick, 1_000))
          socket.write(row)
        }
        socket.write(closing)
      })
      let text = ""
      const deadline = setTimeout(() => socket.destroy(new Error("no answer to the slow upload")), 60_000)
      socket.setEncoding("utf8")
      socket.on("data", (chunk: string) => {
        text += chunk
        const [head = "", body = ""] = text.split("\r\n\r\n", 2)
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? Number.NaN)
        if (Buffer.byteLength(body) >= length) {
          clearTimeout(deadline)
          socket.destroy()
          resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), head, body, closed: false, elapsedMs: Date.now() - started })
        }
      })
      socket.once("error", reject)
    })
    expect(answer.status, answer.body).toBe(201)
    expect(answer.elapsedMs).toBeGreaterThan(bodyIdleSeconds * 1000 * 2)
    expect(JSON.parse(answer.body)).toMatchObject({ filename: "slow.csv", row_count: 6, column_count: 2 })
  })

  it("the server stays healthy after all of it", async () => {
    expect((await http(`${baseUrl}/health`, { timeoutMs: 3_000 })).status).toBe(200)
  })
})
