// @synth/threads: worker threads that stay warm between jobs. The parent side is here; a thread's module serves its
// jobs with `serveJobs` from "@synth/threads/worker".
export type { FromThread, ToThread } from "./envelope.ts"
export { defaultPoolOptions, type JobCallbacks, poolFor, type PoolOptions, WorkerPool } from "./WorkerPool.ts"
export { runPooled, WorkerCrashed } from "./runPooled.ts"
