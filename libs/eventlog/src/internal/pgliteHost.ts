// The embedded event log's database thread (see pgliteThread.ts): opens PGlite and answers queries one at a time,
// in the order they arrive.
import { PGlite } from "@electric-sql/pglite"
import { parentPort, workerData } from "node:worker_threads"
import { embeddedPgliteOptions } from "./pgliteSettings.ts"

export type PgliteHostRequest =
  | { readonly kind: "query"; readonly id: number; readonly sql: string; readonly params: Array<unknown> }
  | { readonly kind: "close" }

export type PgliteHostReply =
  | { readonly kind: "open" }
  | { readonly kind: "openFailed"; readonly message: string }
  | { readonly kind: "rows"; readonly id: number; readonly rows: Array<unknown> }
  | { readonly kind: "error"; readonly id: number; readonly message: string; readonly code: string | undefined }
  | { readonly kind: "closed" }

const port = parentPort
if (port === null) throw new Error("pgliteHost.ts runs in a worker thread only")
const reply = (message: PgliteHostReply) => port.postMessage(message)
const { dataDir } = workerData as { readonly dataDir: string | undefined }

const messageOf = (error: unknown) => error instanceof Error ? error.message : String(error)
const codeOf = (error: unknown) =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? error.code : undefined

let db: PGlite
try {
  db = await PGlite.create(embeddedPgliteOptions(dataDir))
} catch (error) {
  reply({ kind: "openFailed", message: messageOf(error) })
  throw error
}

// PGlite is one session: statements run one after the other, as the parent sends them.
let previous: Promise<unknown> = Promise.resolve()
port.on("message", (request: PgliteHostRequest) => {
  previous = previous.then(async () => {
    if (request.kind === "close") {
      await db.close()
      return reply({ kind: "closed" })
    }
    try {
      const result = await db.query(request.sql, request.params)
      reply({ kind: "rows", id: request.id, rows: result.rows })
    } catch (error) {
      reply({ kind: "error", id: request.id, message: messageOf(error), code: codeOf(error) })
    }
  })
})
reply({ kind: "open" })
