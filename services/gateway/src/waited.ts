/**
 * The answer of a request that waits a bounded time for its job (an upload's ingestion, a profile, a scan, a quick
 * evaluation): the job's result, or, when the job outlasts the wait, the note that it is still running.
 */
export type Waited<A, P> =
  | { readonly _tag: "Finished"; readonly result: A }
  | { readonly _tag: "StillRunning"; readonly pending: P }

export const finished = <A>(result: A): Waited<A, never> => ({ _tag: "Finished", result })

export const stillRunning = <P>(pending: P): Waited<never, P> => ({ _tag: "StillRunning", pending })
