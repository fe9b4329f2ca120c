import { parentPort } from "node:worker_threads"
import type { FromThread, ToThread } from "./envelope.ts"

export type Post<Message> = (message: Message, transfer?: ReadonlyArray<ArrayBuffer>) => void

export interface JobHandler<Request, Message> {
  /** Runs one job; every message it posts goes to the job's caller. A rejection is a bug: it crashes the thread. */
  readonly handle: (request: Request, post: Post<Message>) => Promise<void>
  /** The message that ends a job (its outcome); the thread is free once it is posted. */
  readonly isFinal: (message: Message) => boolean
  /**
   * Whether the thread may take another job after this one. False where the job grew memory that is never given back
   * (WebAssembly memory only grows), so the pool ends the thread rather than keep that memory alive.
   */
  readonly reusable?: () => boolean
}

/**
 * The worker side of a WorkerPool: takes the jobs its pool posts, one at a time, in order. Call it once, at the top
 * level of the thread's module.
 */
export const serveJobs = <Request, Message>(handler: JobHandler<Request, Message>): void => {
  const port = parentPort
  if (port === null) throw new Error("serveJobs runs in a worker thread only")
  const send = (envelope: FromThread<Message>, transfer: ReadonlyArray<ArrayBuffer> = []) =>
    port.postMessage(envelope, transfer as Array<ArrayBuffer>)
  const post: Post<Message> = (message, transfer) =>
    handler.isFinal(message)
      ? send({ pool: "final", message, reusable: handler.reusable?.() ?? true }, transfer)
      : send({ pool: "report", message }, transfer)

  // Jobs run one after the other even when a handler keeps working after its final message.
  let previous: Promise<void> = Promise.resolve()
  port.on("message", (envelope: ToThread<Request>) => {
    previous = previous.then(() => handler.handle(envelope.request, post)).catch((error: unknown) => {
      // Rethrown outside the promise, so that it crashes the thread as a synchronous throw would.
      setImmediate(() => {
        throw error
      })
    })
  })
  send({ pool: "ready" })
}
