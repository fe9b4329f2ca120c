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
  Effect.callback<Outcome, WorkerCrashed>((resume) => {
    // The request travels as workerData, part of the thread's construction. A message posted after `new Worker`
    // can be lost under Deno when it arrives while the entry module is still loading (its top-level await runs
    // before the listener exists; seen as a job stuck at 5 % in CI). Copied, not transferred: a retried or
    // redelivered run of this effect builds its thread from the same bytes.
    const worker = new Worker(entry, { workerData: request })
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
    worker.on("error", (error: unknown) =>
      settle(Effect.fail(new WorkerCrashed({ message: error instanceof Error ? error.message : String(error) }))))
    worker.on("exit", (code) =>
      settle(Effect.fail(new WorkerCrashed({ message: `the worker thread exited (code ${code}) before it answered` }))))
    return Effect.sync(() => {
      settled = true
      void worker.terminate()
    })
  })
