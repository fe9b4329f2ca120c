import { Data, Effect } from "effect"
import { Worker } from "node:worker_threads"
import type { EvaluationRequest, WorkerMessage } from "./protocol.ts"

/** The worker thread died before it answered: an exception in the evaluation code, or it ran out of memory. */
export class WorkerCrashed extends Data.TaggedError("WorkerCrashed")<{ readonly message: string }> {}

const defaultEntry = new URL("./entry.mjs", import.meta.url)

/**
 * Runs one evaluation in a fresh worker thread, off the event loop (a run with ML utility is tens of seconds of CPU,
 * and in the embedded runtime the gateway shares this process). Interrupting the effect terminates the thread at
 * once. A fresh thread per evaluation keeps one evaluation's memory from outliving it.
 */
export const runInWorker = (
  request: EvaluationRequest,
  entry: URL = defaultEntry
): Effect.Effect<WorkerMessage, WorkerCrashed> =>
  Effect.callback<WorkerMessage, WorkerCrashed>((resume) => {
    // The request travels as workerData, part of the thread's construction. A message posted after `new Worker`
    // can be lost under Deno when it arrives while the entry module is still loading (its top-level await runs
    // before the listener exists; seen as a job stuck at 5 % in CI). Copied, not transferred: a retried or
    // redelivered run of this effect builds its thread from the same bytes.
    const worker = new Worker(entry, { workerData: request })
    let settled = false
    const settle = (effect: Effect.Effect<WorkerMessage, WorkerCrashed>) => {
      if (settled) return
      settled = true
      resume(effect)
      void worker.terminate()
    }
    worker.on("message", (message: WorkerMessage) => settle(Effect.succeed(message)))
    worker.on("error", (error: unknown) =>
      settle(Effect.fail(new WorkerCrashed({ message: error instanceof Error ? error.message : String(error) }))))
    worker.on("exit", (code) =>
      settle(Effect.fail(new WorkerCrashed({ message: `the worker thread exited (code ${code}) before it answered` }))))
    return Effect.sync(() => {
      settled = true
      void worker.terminate()
    })
  })
