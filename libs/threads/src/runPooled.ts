import { Data, Effect } from "effect"
import type { WorkerPool } from "./WorkerPool.ts"

/** The worker thread died before it answered: an exception in the job's code, or it ran out of memory. */
export class WorkerCrashed extends Data.TaggedError("WorkerCrashed")<{ readonly message: string }> {}

/**
 * Runs one job on `pool`: `onReport` sees its reports, the effect succeeds with its final message. Interrupting the
 * effect ends the job's thread at once (that is how a job is cancelled: the job's code need not cooperate).
 */
export const runPooled = <Request, Message, Final extends Message = Message>(
  pool: WorkerPool,
  request: Request,
  onReport: (report: Message) => void = () => undefined
): Effect.Effect<Final, WorkerCrashed> =>
  Effect.callback<Final, WorkerCrashed>((resume) => {
    const cancel = pool.run<Request, Message>(request, {
      onReport,
      onFinal: (message) => resume(Effect.succeed(message as Final)),
      onCrash: (message) => resume(Effect.fail(new WorkerCrashed({ message })))
    })
    return Effect.sync(cancel)
  })
