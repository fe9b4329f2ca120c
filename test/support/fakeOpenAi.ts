import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * A local OpenAI-compatible chat-completions server for tests of the AI layer: it records every request body and
 * answers as the test says (a classification, a delay past the client's timeout, an HTTP error, or content that
 * breaks the JSON schema). Listens on 127.0.0.1 only; `baseUrl` is what OPENAI_BASE_URL takes.
 */
export type FakeBehaviour =
  | { readonly kind: "classify"; readonly typeOf: (columnName: string) => { type: string; confidence: number } }
  | { readonly kind: "delay"; readonly ms: number }
  | { readonly kind: "status"; readonly status: number }
  | { readonly kind: "malformed" }

export interface RecordedRequest {
  readonly path: string
  readonly authorization: string | undefined
  readonly body: {
    readonly model: string
    readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>
    readonly response_format?: unknown
  }
}

export interface FakeOpenAi {
  readonly baseUrl: string
  readonly requests: ReadonlyArray<RecordedRequest>
  behave(behaviour: FakeBehaviour): void
  close(): Promise<void>
}

const readBody = async (request: IncomingMessage) => {
  const chunks: Array<Buffer> = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString("utf8")
}

const completion = (content: string) => ({
  id: "chatcmpl-test",
  object: "chat.completion",
  created: 0,
  model: "fake",
  choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content, refusal: null } }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }
})

/** The column names of the scan's user message (the JSON the AI layer sends). */
const columnNamesOf = (body: RecordedRequest["body"]): ReadonlyArray<string> => {
  const user = body.messages.find((message) => message.role === "user")
  const parsed = JSON.parse(user?.content ?? "{}") as { columns?: ReadonlyArray<{ name: string }> }
  return (parsed.columns ?? []).map((column) => column.name)
}

export const startFakeOpenAi = async (): Promise<FakeOpenAi> => {
  const requests: Array<RecordedRequest> = []
  let behaviour: FakeBehaviour = { kind: "malformed" }
  const server: Server = createServer((request, response) => {
    void (async () => {
      const text = await readBody(request)
      const body = JSON.parse(text) as RecordedRequest["body"]
      requests.push({ path: request.url ?? "", authorization: request.headers.authorization, body })
      const current = behaviour
      const reply = (status: number, payload: unknown) => {
        if (response.writableEnded || response.destroyed) return
        response.writeHead(status, { "content-type": "application/json" })
        response.end(JSON.stringify(payload))
      }
      switch (current.kind) {
        case "classify": {
          const columns = columnNamesOf(body).map((column) => ({ column, ...current.typeOf(column) }))
          return reply(200, completion(JSON.stringify({ columns })))
        }
        case "delay":
          return setTimeout(() => reply(200, completion(JSON.stringify({ columns: [] }))), current.ms)
        case "status":
          return reply(current.status, { error: { message: "test error", type: "server_error" } })
        case "malformed":
          return reply(200, completion("this is not the requested JSON"))
      }
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    behave: (next) => {
      behaviour = next
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
