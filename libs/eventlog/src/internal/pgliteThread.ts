import { Worker } from "node:worker_threads"
import { createInThrowawayThread } from "./freshDataDir.ts"
import type { PgliteHostReply, PgliteHostRequest } from "./pgliteHost.ts"

/** The part of PGlite the embedded log uses. */
export interface PgliteSession {
  readonly query: <Row>(sql: string, params?: ReadonlyArray<unknown>) => Promise<{ readonly rows: Array<Row> }>
  /** Flushes the database to its data dir and ends the thread. */
  readonly close: () => Promise<void>
}

/** An error PGlite raised in its thread, with its SQLSTATE where it had one. */
export class PgliteThreadError extends Error {
  readonly code: string | undefined
  constructor(message: string, code: string | undefined) {
    super(message)
    this.code = code
  }
}

const hostModule = new URL("./pgliteHost.ts", import.meta.url)

/**
 * PGlite in a worker thread of its own, queried by message: under load its work (WebAssembly and the protocol's
 * parsing) was a quarter of the embedded server's main-thread time, which now runs beside the event loop. Opening
 * fails (rejects) when PGlite cannot open `dataDir`; a thread that dies fails every query in flight and after. A fresh
 * `dataDir` gets its database first from a thread that ends (freshDataDir.ts).
 */
export const openPgliteThread = async (dataDir: string | undefined): Promise<PgliteSession> => {
  if (dataDir !== undefined) await createInThrowawayThread(dataDir)
  return new Promise((resolve, reject) => {
    const worker = new Worker(hostModule, { workerData: { dataDir } })
    const pending = new Map<number, { resolve: (rows: Array<unknown>) => void; reject: (error: Error) => void }>()
    let nextId = 0
    let lost: Error | null = null
    let closed: (() => void) | null = null

    const failAll = (error: Error) => {
      lost = error
      for (const request of pending.values()) request.reject(error)
      pending.clear()
    }
    const send = (request: PgliteHostRequest) => worker.postMessage(request)

    worker.on("message", (reply: PgliteHostReply) => {
      switch (reply.kind) {
        case "open":
          return resolve(session)
        case "openFailed":
          reject(new PgliteThreadError(reply.message, undefined))
          return void worker.terminate()
        case "rows":
          pending.get(reply.id)?.resolve(reply.rows)
          return void pending.delete(reply.id)
        case "error":
          pending.get(reply.id)?.reject(new PgliteThreadError(reply.message, reply.code))
          return void pending.delete(reply.id)
        case "closed":
          return closed?.()
      }
    })
    worker.on("error", (error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error))
      reject(failure)
      failAll(failure)
    })
    worker.on("exit", (code) => {
      const failure = new Error(`the embedded event log's database thread exited (code ${code})`)
      reject(failure)
      failAll(failure)
      closed?.()
    })

    const session: PgliteSession = {
      query: <Row>(sql: string, params: ReadonlyArray<unknown> = []) =>
        new Promise<{ readonly rows: Array<Row> }>((resolveQuery, rejectQuery) => {
          if (lost !== null) return rejectQuery(lost)
          const id = nextId++
          pending.set(id, { resolve: (rows) => resolveQuery({ rows: rows as Array<Row> }), reject: rejectQuery })
          send({ kind: "query", id, sql, params: [...params] })
        }),
      close: () =>
        lost !== null
          ? Promise.resolve()
          : new Promise<void>((resolveClose) => {
            closed = resolveClose
            send({ kind: "close" })
          }).then(() => worker.terminate()).then(() => undefined)
    }
  })
}
