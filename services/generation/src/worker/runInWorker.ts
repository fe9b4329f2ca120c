import { Data, Effect } from "effect"
import { Worker } from "node:worker_threads"
import type { JobRequest, WorkerMessage } from "./protocol.ts"

/** The worker thread died before it answered: an exception in the model code, or it ran out of memory. */
export class WorkerCrashed extends Data.TaggedError("WorkerCrashed")<{ readonly message: string }> {}

export type Outcome = Extract<WorkerMessage, { kind: "done" | "refused" }>
export type Report = Exclude<WorkerMessage, { kind: "done" | "refused" }>

const defaultEntry = new URL("./entry.mjs", import.meta.url)

/**
 * Runs one job in a fresh worker thread, off the event loop: `onReport` sees its progress messages, the effect
 * succeeds with its outcome. Interrupting the effect terminates the thread at once (that is how a job is cancelled:
 * no cooperation from the model code is needed). A fresh thread per job keeps one job's memory from outliving it.
 */
export const runInWorker = (
  request: JobRequest,
  onReport: (report: Report) => void,
  entry: URL = defaultEntry
): Effect.Effect<Outcome, WorkerCrashed> =>
  Effect.async<Outcome, WorkerCrashed>((resume) => {
    const worker = new Worker(entry)
    let settled = false
    const settle = (effect: Effect.Effect<Outcome, WorkerCrashed>) => {
      if (settled) return
      settled = true
      resume(effect)
      void worker.terminate()
    }
    worker.on("message", (message: WorkerMessage) => {
      if (message.kind === "done" || message.kind === "refused") settle(Effect.succeed(message))
      else onReport(message)
    })
    worker.on("error", (error) => settle(Effect.fail(new WorkerCrashed({ message: error.message }))))
    worker.on("exit", (code) =>
      settle(Effect.fail(new WorkerCrashed({ message: `the worker thread exited (code ${code}) before it answered` }))))
    // Copied, not transferred: a transfer would detach the caller's bytes, and a retried or repeated run of this
    // effect would then post an empty message that the new thread waits on forever. One memcpy of the table is cheap
    // next to training on it.
    worker.postMessage(request)
    return Effect.sync(() => {
      settled = true
      void worker.terminate()
    })
  })
