import { describe, expect, it } from "@effect/vitest"
import type { Server } from "node:http"
import { connect } from "node:net"
import { makeServerGuards } from "./guardedServer.ts"

const listening = (server: Server) =>
  new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)))

/** Sends `request` as raw bytes; resolves with everything received until the server closes or `deadlineMs`. */
const exchange = (port: number, request: string, deadlineMs = 5_000) =>
  new Promise<{ text: string; closed: boolean }>((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request))
    let text = ""
    const done = (closed: boolean) => {
      clearTimeout(deadline)
      socket.destroy()
      resolve({ text, closed })
    }
    const deadline = setTimeout(() => done(false), deadlineMs)
    socket.setEncoding("utf8").on("data", (chunk: string) => (text += chunk))
    socket.once("close", () => done(true))
  })

const withServer = async (body: (server: Server, port: number) => Promise<void>) => {
  const server = makeServerGuards({ bodyIdleTimeoutMs: 300 }).createServer()
  const port = await listening(server)
  try {
    await body(server, port)
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

const get = "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"

describe("guardedServer", () => {
  it("answers 503 service_unavailable with Retry-After while no handler is attached, and again after it is detached", async () => {
    await withServer(async (server, port) => {
      const before = await exchange(port, get)
      expect(before.text).toMatch(/^HTTP\/1\.1 503 /)
      expect(before.text).toMatch(/retry-after: 1/i)
      expect(before.text).toMatch(/x-request-id: \S+/i)
      expect(before.text).toMatch(/content-type: application\/problem\+json/i)
      expect(JSON.parse(before.text.split("\r\n\r\n")[1]!)).toMatchObject({ status: 503, code: "service_unavailable" })

      const handler = (_request: unknown, response: import("node:http").ServerResponse) => response.end("ok")
      server.on("request", handler)
      expect((await exchange(port, get)).text).toMatch(/^HTTP\/1\.1 200 [\s\S]*ok$/)

      server.off("request", handler)
      expect((await exchange(port, get)).text).toMatch(/^HTTP\/1\.1 503 /)
    })
  })

  it("guards a request sent with Expect: 100-continue, which Node hands to a `checkContinue` listener instead", async () => {
    await withServer(async (server, port) => {
      let reached = 0
      const handler = (_request: unknown, response: import("node:http").ServerResponse) => {
        reached++
        response.end("handled")
      }
      server.on("request", handler)
      server.on("checkContinue", handler)
      const answer = await exchange(
        port,
        "POST /datasets/upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\nExpect: 100-continue\r\n" +
          "Content-Type: multipart/form-data\r\nContent-Length: 3\r\n\r\n"
      )
      expect(answer.text).toMatch(/^HTTP\/1\.1 400 /)
      expect(answer.text).toMatch(/"code":"malformed_request"/)
      expect(reached).toBe(0)
    })
  })

  it("answers multipart without a usable boundary 400 malformed_request, before the handler sees it", async () => {
    await withServer(async (server, port) => {
      let reached = 0
      server.on("request", (request, response) => {
        reached++
        request.resume().once("end", () => response.end("handled"))
      })
      const post = (contentType: string) =>
        exchange(port, `POST /datasets/upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: ${contentType}\r\nContent-Length: 3\r\n\r\nabc`)
      for (const contentType of ["multipart/form-data", "multipart/form-data; boundary=", `multipart/form-data; boundary="${"b".repeat(71)}"`, "Multipart/Mixed; charset=utf-8"]) {
        const answer = await post(contentType)
        expect(answer.text, contentType).toMatch(/^HTTP\/1\.1 400 /)
        expect(answer.text).toMatch(/"code":"malformed_request"/)
      }
      expect(reached).toBe(0)
      for (const contentType of ["multipart/form-data; boundary=abc", `multipart/form-data; boundary="a b"`, "text/csv"]) {
        expect((await post(contentType)).text, contentType).toMatch(/^HTTP\/1\.1 200 [\s\S]*handled$/)
      }
      expect(reached).toBe(3)
    })
  })

  it("answers a multipart body to a route that takes another type 415 unsupported_media_type, naming what it takes", async () => {
    const server = makeServerGuards({
      bodyIdleTimeoutMs: 5_000,
      bodyTypesOf: (method, path) => (method === "POST" && path === "/upload" ? ["multipart/form-data"] : path === "/json" ? ["application/json"] : undefined)
    }).createServer()
    const port = await listening(server)
    try {
      server.on("request", (request, response) => request.resume().once("end", () => response.end("handled")))
      const post = (path: string, contentType: string) =>
        exchange(port, `POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: ${contentType}\r\nContent-Length: 7\r\n\r\n--b--\r\n`)
      const refused = await post("/json?x=1", "multipart/form-data; boundary=b")
      expect(refused.text).toMatch(/^HTTP\/1\.1 415 /)
      expect(refused.text).toMatch(/accept: application\/json/i)
      expect(refused.text).toMatch(/"code":"unsupported_media_type"/)
      expect(refused.text).toMatch(/POST \/json takes application\/json, not multipart\/form-data/)
      // The route that takes multipart, a route the API does not have (the router's 404), and JSON to JSON pass.
      expect((await post("/upload", "multipart/form-data; boundary=b")).text).toMatch(/handled$/)
      expect((await post("/unknown", "multipart/form-data; boundary=b")).text).toMatch(/handled$/)
      expect((await post("/json", "application/json")).text).toMatch(/handled$/)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it("answers a body that stops arriving 408 request_timeout and closes the connection; a body that keeps coming is read", async () => {
    await withServer(async (server, port) => {
      server.on("request", (request, response) => {
        let bytes = 0
        request.on("data", (chunk: Buffer) => (bytes += chunk.length))
        request.once("end", () => response.end(`read ${bytes}`))
      })
      const stalled = await exchange(port, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
      expect(stalled.text).toMatch(/^HTTP\/1\.1 408 /)
      expect(stalled.text).toMatch(/"code":"request_timeout"/)
      expect(stalled.closed).toBe(true)

      // Ten bytes, one every 100 ms: a whole second, over three times the idle time, never idle for it.
      const slow = await new Promise<string>((resolve) => {
        const socket = connect(port, "127.0.0.1", async () => {
          socket.write("POST /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 10\r\n\r\n")
          for (let index = 0; index < 10; index++) {
            await new Promise((tick) => setTimeout(tick, 100))
            socket.write("z")
          }
        })
        let text = ""
        socket.setEncoding("utf8").on("data", (chunk: string) => (text += chunk))
        socket.once("close", () => resolve(text))
      })
      expect(slow).toMatch(/^HTTP\/1\.1 200 [\s\S]*read 10$/)

      // A request without a body is never timed, however long its answer takes.
      server.removeAllListeners("request")
      server.on("request", (_request, response) => setTimeout(() => response.end("late"), 600))
      expect((await exchange(port, get)).text).toMatch(/^HTTP\/1\.1 200 [\s\S]*late$/)
    })
  })

  it("ends the body for a handler still reading it once a stalled request was answered 408", async () => {
    await withServer(async (server, port) => {
      const bodyEnded = new Promise<string>((resolve) =>
        server.on("request", (request) => {
          request.on("data", () => undefined)
          request.once("close", () => resolve(request.complete ? "complete" : "closed early"))
        }))
      const stalled = await exchange(port, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
      expect(stalled.text).toMatch(/^HTTP\/1\.1 408 /)
      const stillOpen = new Promise((resolve) => setTimeout(() => resolve("still open"), 2_000))
      expect(await Promise.race([bodyEnded, stillOpen])).toBe("closed early")
    })
  })

  it("drains: new requests get 503 while the ones in flight finish; it waits no longer than the grace", async () => {
    const guards = makeServerGuards({ bodyIdleTimeoutMs: 5_000 })
    const server = guards.createServer()
    const port = await listening(server)
    try {
      server.on("request", (request, response) => {
        const delay = Number(new URL(request.url ?? "/", "http://x").searchParams.get("ms") ?? 0)
        setTimeout(() => response.end(`after ${delay}`), delay)
      })
      const inFlight = exchange(port, "GET /?ms=400 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
      await new Promise((tick) => setTimeout(tick, 100))
      const started = Date.now()
      const drained = guards.drain(5_000)
      const refused = await exchange(port, get)
      expect(refused.text).toMatch(/^HTTP\/1\.1 503 /)
      expect(refused.text).toMatch(/shutting down/)
      expect((await inFlight).text).toMatch(/^HTTP\/1\.1 200 [\s\S]*after 400$/)
      expect(await drained).toBe(0)
      expect(Date.now() - started).toBeLessThan(2_000)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }

    const bounded = makeServerGuards({ bodyIdleTimeoutMs: 5_000 })
    const slowServer = bounded.createServer()
    const slowPort = await listening(slowServer)
    slowServer.on("request", (_request, response) => setTimeout(() => response.end("late"), 3_000))
    const cutShort = exchange(slowPort, get)
    await new Promise((tick) => setTimeout(tick, 100))
    const started = Date.now()
    expect(await bounded.drain(300)).toBe(1)
    expect(Date.now() - started).toBeLessThan(1_500)
    expect((await cutShort).closed).toBe(true)
    await new Promise((resolve) => slowServer.close(resolve))
  })
})
