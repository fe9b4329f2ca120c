import type { Generator, GeneratorStatus } from "@synth/contracts"
import { Console, Duration, Effect } from "effect"
import { jobProgress } from "./progress.ts"

/** A generator record whose job is over: completed, failed or cancelled. */
export type EndedGenerator = Generator & { readonly status: Exclude<GeneratorStatus, "running"> }

const hasEnded = (record: Generator): record is EndedGenerator => record.status !== "running"

const pollInterval = Duration.millis(500)

/**
 * Reads the generator every half second, showing its progress, until the job is over. Interrupted (Ctrl-C), it only
 * stops following: the job is the server's and keeps running.
 */
export const followGenerator = <E>(id: string, readRecord: Effect.Effect<Generator, E>): Effect.Effect<EndedGenerator, E> => {
  const progress = jobProgress()
  const poll: Effect.Effect<EndedGenerator, E> = Effect.flatMap(
    Effect.tap(readRecord, progress.show),
    (record) => (hasEnded(record) ? Effect.succeed(record) : Effect.andThen(Effect.sleep(pollInterval), poll))
  )
  return poll.pipe(
    Effect.ensuring(progress.stop),
    Effect.onInterrupt(() =>
      Console.error(
        `Stopped following. Generator ${id} keeps running: see GET /generators/${id} (POST /generators/${id}/cancel stops it).`
      )
    )
  )
}
