// A worker entry whose job code throws on the request, as a bug in a model would: runInWorker must fail WorkerCrashed.
import { parentPort } from "node:worker_threads"

parentPort.once("message", () => {
  throw new Error("model code exploded")
})
