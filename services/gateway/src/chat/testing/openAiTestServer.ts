/** Test helper: a local OpenAI-compatible server (POST /v1/chat/completions) that records requests and answers as told. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly authorization: string | undefined
  readonly body: string
}

export type Behaviour =
  | { readonly kind: "reply"; readonly content: string | null }
  | { readonly kind: "status"; readonly status: number }
  | { readonly kind: "garbage" }
  | { readonly kind: "silent"; readonly forMillis: number }

export interface OpenAiTestServer {
  /** The base URL, up to and including /v1. */
  readonly baseUrl: string
  readonly requests: Array<RecordedRequest>
  behaviour: Behaviour
  readonly close: () => Promise<void>
}

const completion = (content: string | null) =>
  JSON.stringify({
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 0,
    model: "test-model",
    choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }]
  })

export const startOpenAiTestServer = (): Promise<OpenAiTestServer> =>
  new Promise((resolve) => {
    const timers = new Set<NodeJS.Timeout>()
    const answer = (state: OpenAiTestServer, response: ServerResponse) => {
      const behaviour = state.behaviour
      switch (behaviour.kind) {
        case "reply":
          response.writeHead(200, { "content-type": "application/json" }).end(completion(behaviour.content))
          return
        case "status":
          response.writeHead(behaviour.status, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "boom" } }))
          return
        case "garbage":
          response.writeHead(200, { "content-type": "application/json" }).end("{ this is not json")
          return
        case "silent": {
          const timer = setTimeout(() => response.writeHead(200).end(completion("too late")), behaviour.forMillis)
          timers.add(timer)
          return
        }
      }
    }
    const server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        state.requests.push({
          method: request.method ?? "",
          path: request.url ?? "",
          authorization: request.headers.authorization,
          body: Buffer.concat(chunks).toString("utf8")
        })
        answer(state, response)
      })
    })
    const state: OpenAiTestServer = {
      baseUrl: "",
      requests: [],
      behaviour: { kind: "reply", content: "ok" },
      close: () =>
        new Promise((done) => {
          for (const timer of timers) clearTimeout(timer)
          server.closeAllConnections()
          server.close(() => done())
        })
    }
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      resolve(Object.assign(state, { baseUrl: `http://127.0.0.1:${port}/v1` }))
    })
  })
