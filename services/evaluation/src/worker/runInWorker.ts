import { runPooled, type WorkerCrashed, WorkerPool } from "@synth/threads"
import type { Effect } from "effect"
import type { EvaluationRequest, WorkerMessage } from "./protocol.ts"

export { WorkerCrashed } from "@synth/threads"

const defaultEntry = new URL("./entry.mjs", import.meta.url)
const pools = new Map<string, WorkerPool>()

/** One pool per worker module (tests bring their own modules); its idle threads never keep the process alive. */
const poolFor = (entry: URL) => {
  const existing = pools.get(entry.href)
  if (existing !== undefined) return existing
  const pool = new WorkerPool(entry)
  pools.set(entry.href, pool)
  return pool
}

/**
 * Runs one evaluation in a worker thread, off the event loop (a run with ML utility is tens of seconds of CPU, and in
 * the embedded runtime the gateway shares this process). The thread stays warm for the next evaluation: loading the
 * evaluation code takes two seconds, a quick evaluation of a small table a tenth of that. Interrupting the effect
 * ends the thread at once.
 */
export const runInWorker = (
  request: EvaluationRequest,
  entry: URL = defaultEntry
): Effect.Effect<WorkerMessage, WorkerCrashed> => runPooled<EvaluationRequest, WorkerMessage>(poolFor(entry), request)
