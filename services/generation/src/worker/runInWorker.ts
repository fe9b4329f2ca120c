import { poolFor, runPooled, type WorkerCrashed } from "@synth/threads"
import type { Effect } from "effect"
import type { JobRequest, WorkerMessage } from "./protocol.ts"

export { WorkerCrashed } from "@synth/threads"

export type Outcome = Extract<WorkerMessage, { kind: "done" | "refused" }>
export type Report = Exclude<WorkerMessage, { kind: "done" | "refused" }>

const defaultEntry = new URL("./entry.mjs", import.meta.url)

/**
 * Runs one job in a worker thread, off the event loop: `onReport` sees its progress messages, the effect succeeds
 * with its outcome. Interrupting the effect ends the thread at once (that is how a job is cancelled: no cooperation
 * from the model code is needed). A thread that ran the copula stays warm for the next job (loading the job code
 * takes two seconds, fitting a small table a fraction of that); one that ran a neural model ends with its job.
 */
export const runInWorker = (
  request: JobRequest,
  onReport: (report: Report) => void,
  entry: URL = defaultEntry
): Effect.Effect<Outcome, WorkerCrashed> =>
  runPooled<JobRequest, WorkerMessage, Outcome>(poolFor(entry), request, (message) => onReport(message as Report))
