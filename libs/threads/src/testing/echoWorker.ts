// A pooled thread for the pool's tests: answers each job with its thread id and how many jobs it has served.
import { threadId } from "node:worker_threads"
import { serveJobs } from "../serveJobs.ts"

export type EchoRequest =
  | { readonly kind: "echo"; readonly reports: number; readonly reusable?: boolean }
  | { readonly kind: "crash" }
  | { readonly kind: "hang" }

export type EchoMessage =
  | { readonly kind: "report"; readonly index: number }
  | { readonly kind: "done"; readonly threadId: number; readonly served: number }

let served = 0
let reusable = true

serveJobs<EchoRequest, EchoMessage>({
  handle: async (request, post) => {
    served++
    if (request.kind === "crash") throw new Error("the job's code failed")
    if (request.kind === "hang") return new Promise(() => undefined)
    reusable = request.reusable ?? true
    for (let index = 0; index < request.reports; index++) post({ kind: "report", index })
    post({ kind: "done", threadId, served })
  },
  isFinal: (message) => message.kind === "done",
  reusable: () => reusable
})
