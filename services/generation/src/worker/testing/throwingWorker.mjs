// A worker module whose job code throws on the request, as a bug in a model would: runInWorker must fail WorkerCrashed.
import { serveJobs } from "@synth/threads/worker"

serveJobs({
  handle: async () => {
    throw new Error("model code exploded")
  },
  isFinal: () => true
})
