import { HttpApiSchema } from "effect/http-api"
import type { Waited } from "../waited.ts"

/**
 * A finished job's result as the operation's 200 answers it; a job still running as its 202 (the contracts'
 * `Located`), with the Location to poll.
 */
export const pendingAt =
  <P>(location: (pending: P) => string) =>
  <A>(waited: Waited<A, P>) =>
    waited._tag === "Finished"
      ? waited.result
      : HttpApiSchema.withHeaders({ body: waited.pending, headers: { location: location(waited.pending) } })

/** Both outcomes name the resource in `Location`: the finished one (201) to read, the running one (202) to poll. */
export const locatedAt =
  <A, P>(location: (value: A | P) => string) =>
  (waited: Waited<A, P>) =>
    waited._tag === "Finished"
      ? HttpApiSchema.withHeaders({ body: waited.result, headers: { location: location(waited.result) } })
      : HttpApiSchema.withHeaders({ body: waited.pending, headers: { location: location(waited.pending) } })
