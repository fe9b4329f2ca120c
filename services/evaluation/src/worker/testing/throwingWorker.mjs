// A worker entry whose job code throws on the request, as a bug in a model would: runInWorker must fail WorkerCrashed.
import { workerData } from "node:worker_threads"

if (workerData !== undefined) throw new Error("model code exploded")
