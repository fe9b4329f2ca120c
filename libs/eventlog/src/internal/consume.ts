import { Effect, Semaphore, Stream } from "effect"
import type { ConsumeOptions, EventLogError, StoredEvent } from "../EventLog.ts"
import { annotateEventLogs } from "./annotateEventLogs.ts"
import type { ReadOptions } from "./read.ts"
import type { LogStore } from "./store.ts"

/**
 * Consumer groups for logs that live in this process. A member takes a lease on each partition of its topics, so
 * two members of one group never handle the same partition at once; a member that fails or is interrupted drops its
 * leases and a waiting member carries on from the committed cursor (that is how a failed event is redelivered).
 */
export const makeConsume = (
  store: LogStore,
  read: (options: ReadOptions) => Stream.Stream<StoredEvent, EventLogError>
) => {
  const leases = new Map<string, Semaphore.Semaphore>()
  const leaseOf = (group: string, topic: string, partition: number) =>
    Effect.sync(() => {
      const id = JSON.stringify([group, topic, partition])
      const existing = leases.get(id)
      if (existing !== undefined) return existing
      const lease = Semaphore.makeUnsafe(1)
      leases.set(id, lease)
      return lease
    })

  return <E, R>(options: ConsumeOptions<E, R>): Effect.Effect<never, EventLogError | E, R> =>
    Effect.gen(function*() {
      // One handler call at a time per member, as a Kafka client does by default: handlers need not be reentrant.
      const handlerTurn = yield* Semaphore.make(1)
      const handleThenCommit = (event: StoredEvent) =>
        handlerTurn.withPermits(1)(options.handle(event).pipe(annotateEventLogs(event))).pipe(
          Effect.andThen(store.commit(options.group, event.topic, event.partition, event.offset + 1))
        )
      const consumePartition = (topic: string, partition: number) =>
        Effect.flatMap(leaseOf(options.group, topic, partition), (lease) =>
          lease.withPermits(1)(
            store.committedOffset(options.group, topic, partition).pipe(
              Effect.flatMap((fromOffset) =>
                read({ topic, partition, fromOffset, follow: true }).pipe(Stream.runForEach(handleThenCommit))
              )
            )
          ))
      const partitions = options.topics.flatMap((topic) =>
        Array.from({ length: store.partitionCount }, (_, partition) => ({ topic, partition }))
      )
      yield* Effect.forEach(partitions, ({ partition, topic }) => consumePartition(topic, partition), {
        concurrency: "unbounded",
        discard: true
      })
      // Following reads never end, so the member only stops by failing or being interrupted.
      return yield* Effect.never
    })
}
