import { Effect, HashMap, Option, Stream, SubscriptionRef } from "effect"
import { type CursorKey, cursorKey } from "./cursors.ts"
import type { ProjectionPosition } from "./errors.ts"

type Applied = HashMap.HashMap<CursorKey, number>

/**
 * What this process knows each projection has committed: the next offset per cursor. The runtime updates it after
 * every commit and waiters are woken by the change, so read-your-writes never polls the database.
 */
export const makeProgress = (initial: Iterable<readonly [CursorKey, number]>) =>
  Effect.map(SubscriptionRef.make<Applied>(HashMap.fromIterable(initial)), (ref) => {
    const nextOffset = (applied: Applied, key: CursorKey) => Option.getOrElse(HashMap.get(applied, key), () => 0)

    /** The (projection, position) pairs not applied yet. */
    const pending = (applied: Applied, waits: ReadonlyArray<ProjectionPosition>) =>
      waits.filter(({ position, projection }) =>
        nextOffset(applied, cursorKey(projection, position.topic, position.partition)) <= position.offset
      )

    return {
      committed: (key: CursorKey, next: number) => SubscriptionRef.update(ref, HashMap.set(key, next)),

      forget: (projection: string) =>
        SubscriptionRef.update(ref, HashMap.filter((_, key: CursorKey) => key.projection !== projection)),

      pending: (waits: ReadonlyArray<ProjectionPosition>) =>
        Effect.map(SubscriptionRef.get(ref), (applied) => pending(applied, waits)),

      /** Completes once every pair is applied; `changes` starts with the current state, so nothing is missed. */
      awaitApplied: (waits: ReadonlyArray<ProjectionPosition>) =>
        SubscriptionRef.changes(ref).pipe(
          Stream.filter((applied) => pending(applied, waits).length === 0),
          Stream.take(1),
          Stream.runDrain
        )
    }
  })

export type Progress = Effect.Success<ReturnType<typeof makeProgress>>
