import type { Position } from "@synth/eventlog"
import { type Duration, Effect, Option } from "effect"
import type { GeneratorRow } from "./GeneratorRepository.ts"

export interface AwaitSettledOptions<E> {
  /** The generator's row as the read model shows it now. */
  readonly read: Effect.Effect<GeneratorRow, E>
  /** The position of the request whose outcome is awaited (the cancel request): the job ends after it. */
  readonly after: Position
  /** Completes once the read model has applied the event at this position (the projector's read-your-writes wait). */
  readonly applied: (position: Position) => Effect.Effect<void, unknown>
  readonly timeout: Duration.Input
}

/**
 * The row once the job has ended; None when it still runs after `timeout`. The row is read again each time the read
 * model applies one more event of the job's partition: the outcome that ends the job is one of them, whichever
 * instance of the generation service appends it, so nothing polls.
 */
export const awaitSettled = <E>({ after, applied, read, timeout }: AwaitSettledOptions<E>) =>
  Effect.gen(function* () {
    let row = yield* read
    for (let offset = after.offset + 1; row.status === "running"; offset++) {
      yield* applied({ ...after, offset })
      row = yield* read
    }
    return row
  }).pipe(
    Effect.option,
    Effect.timeoutOption(timeout),
    Effect.map(Option.flatten)
  )
