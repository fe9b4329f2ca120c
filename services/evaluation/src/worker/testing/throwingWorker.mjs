// A worker module whose job code throws on the request, as a bug in the evaluation code would: runInWorker must fail
// WorkerCrashed.
import { serveJobs } from "@synth/threads/worker"

serveJobs({
  handle: async () => {
    throw new Error("evaluation code exploded")
  },
  isFinal: () => true
})
