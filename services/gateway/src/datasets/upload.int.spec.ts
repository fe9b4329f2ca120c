// The upload limit over a real socket: a client that keeps writing far past MAX_FILE_SIZE gets its 413 with
// `Connection: close` while it is still writing, and nothing is stored. The gateway runs on the in-memory log and
// blob store and an embedded read-model database: no servers needed.
import { NodeHttpServer } from "@effect/platform-node"
import { HttpServer } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { PasswordHasher, TokensLive } from "@synth/auth"
import { layerMemory as BlobStoreMemory } from "@synth/blobstore"
import { Ids, layerMemory as EventLogMemory } from "@synth/eventlog"
import { layerMigrations, ProjectorRuntime } from "@synth/sql"
import { layerEmbeddedTest } from "@synth/sql/testing"
import { ConfigProvider, Effect, Layer, ManagedRuntime } from "effect"
import { createServer, request } from "node:http"
import { GatewayHttpLive } from "../http/layer.ts"
import { gatewayMigrations, gatewayProjections } from "../readModels.ts"
import { UserKeys } from "../users/UserKeys.ts"

const maxFileSize = 1024 * 1024

const ServerLive = NodeHttpServer.layer(createServer, { host: "127.0.0.1", port: 0 })

const TestLive = Layer.mergeAll(GatewayHttpLive, ProjectorRuntime.layerRunning).pipe(
  Layer.provideMerge(ServerLive),
  Layer.provide(Layer.mergeAll(TokensLive, PasswordHasher.layer, Ids.layer)),
  Layer.provideMerge(
    ProjectorRuntime.layer(gatewayProjections).pipe(
      Layer.provide(layerMigrations([gatewayMigrations])),
      Layer.provide(UserKeys.layer)
    )
  ),
  Layer.provide(Layer.mergeAll(layerEmbeddedTest, EventLogMemory(), BlobStoreMemory)),
  Layer.provide(
    ConfigProvider.layer(
      ConfigProvider.fromUnknown({ MAX_FILE_SIZE: maxFileSize, JWT_SECRET: "a test secret that is long enough for HS256" })
    )
  )
)

let runtime: ManagedRuntime.ManagedRuntime<HttpServer.HttpServer, unknown>
let baseUrl: string

beforeAll(async () => {
  runtime = ManagedRuntime.make(TestLive)
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  baseUrl = `http://127.0.0.1:${address.port}`
}, 60_000)

afterAll(() => runtime?.dispose())

const json = async (path: string, body: unknown, token?: string) => {
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body)
  })
  return (await response.json()) as Record<string, unknown>
}

interface Answer {
  readonly status: number
  readonly connection: string | undefined
  readonly body: string
  readonly written: number
}

/** Writes `totalBytes` of file content in 64 KiB chunks, without a Content-Length (chunked), until answered. */
const slowUpload = (token: string, totalBytes: number) =>
  new Promise<Answer>((resolve, reject) => {
    const boundary = "----upload-limit"
    const req = request(`${baseUrl}/datasets/upload`, {
      method: "POST",
      agent: false,
      headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` }
    })
    const chunk = Buffer.from("12345,67.89,text\n".repeat(4000)).subarray(0, 64 * 1024)
    let written = 0
    let answered = false
    req.once("response", (response) => {
      answered = true
      const writtenAtAnswer = written
      let body = ""
      response.on("data", (data: Buffer) => (body += data.toString("utf8")))
      response.once("end", () =>
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body, written: writtenAtAnswer })
      )
    })
    req.on("error", (error) => {
      if (!answered) reject(error)
    })
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.csv"\r\n\r\n`)
    const writeNext = () => {
      if (answered || req.destroyed) return
      if (written >= totalBytes) return void req.end(`\r\n--${boundary}--\r\n`)
      written += chunk.length
      req.write(chunk)
      setTimeout(writeNext, 2)
    }
    writeNext()
  })

describe("POST /datasets/upload over the size limit", () => {
  it("answers 413 file_too_large with Connection: close long before the client finished, storing nothing", async () => {
    const credentials = { email: "limit@example.com", password: "correct horse battery" }
    await json("/auth/register", credentials)
    const token = (await json("/auth/login", credentials))["access_token"] as string

    const totalBytes = 40 * maxFileSize
    const answer = await slowUpload(token, totalBytes)
    expect(answer.status, answer.body).toBe(413)
    expect(JSON.parse(answer.body)).toMatchObject({ code: "file_too_large", status: 413, max_file_size: maxFileSize })
    expect(answer.connection).toBe("close")
    expect(answer.written).toBeLessThan(4 * maxFileSize)

    const list = await fetch(`${baseUrl}/datasets/`, { headers: { authorization: `Bearer ${token}` } })
    expect(await list.json()).toEqual([])
  }, 60_000)
})
