import { Deferred, Effect } from "effect"

/**
 * Wakes the followers of a topic when something was appended to it. A follower takes `next` before it looks for
 * new rows and waits on it only if it found none, so an append that lands between the look and the wait is never
 * missed. Signals are per topic because every wake-up costs a query on the one database connection.
 */
export interface Changes {
  readonly next: (topic: string) => Effect.Effect<Deferred.Deferred<void>>
  /** Call after the append is durable, never before: a woken follower must find the rows. */
  readonly notify: (topics: Iterable<string>) => Effect.Effect<void>
}

export const makeChanges: Effect.Effect<Changes> = Effect.sync(() => {
  // Only topics that someone waits on have an entry; a notification removes it.
  const waiting = new Map<string, Deferred.Deferred<void>>()
  return {
    next: (topic) =>
      Effect.sync(() => {
        const existing = waiting.get(topic)
        if (existing !== undefined) return existing
        const signal = Deferred.makeUnsafe<void>()
        waiting.set(topic, signal)
        return signal
      }),
    notify: (topics) =>
      Effect.forEach(new Set(topics), (topic) =>
        Effect.suspend(() => {
          const signal = waiting.get(topic)
          waiting.delete(topic)
          return signal === undefined ? Effect.void : Deferred.succeed(signal, undefined)
        }), { discard: true })
  }
})
