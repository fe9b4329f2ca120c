import { poolFor, runPooled, type WorkerCrashed } from "@synth/threads"
import type { Effect } from "effect"
import type { EvaluationRequest, WorkerMessage } from "./protocol.ts"

export { WorkerCrashed } from "@synth/threads"

const defaultEntry = new URL("./entry.mjs", import.meta.url)

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
