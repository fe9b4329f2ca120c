import { Cause, Data, Deferred, Duration, Effect, Exit, Fiber } from "effect"
import type { EachBatchPayload, Kafka } from "kafkajs"
import type { ConsumeOptions, EventLogError, StoredEvent } from "../EventLog.ts"
import { annotateEventLogs } from "../internal/annotateEventLogs.ts"
import { decodeMessage } from "./codec.ts"
import { isRebalancing, whileHeartbeating } from "./heartbeat.ts"
import { kafkaFailure, type Topics } from "./topics.ts"

export interface ConsumeSettings {
  /** The group drops a member it has not heard from for this long (a crashed process). */
  readonly sessionTimeout: Duration.Duration
  readonly heartbeatInterval: Duration.Duration
  /**
   * How long a rebalance waits for a member to finish the event in hand and rejoin. A healthy member keeps
   * heartbeating through a long handler, so up to this long it keeps its partitions and its event is not handed to
   * another member; the rest of the group waits for it meanwhile (kafkajs only has eager rebalancing).
   */
  readonly rebalanceTimeout: Duration.Duration
}

/** A kafkajs error to hand back to kafkajs (a rebalance to join, a commit the group refused): it rejoins the group. */
class ToKafka extends Data.TaggedError("ToKafka")<{ readonly error: unknown }> {}

/**
 * A member of a consumer group. Each event is handled in partition order, one at a time per member (handlers need
 * not be reentrant), and its offset is committed only after the handler succeeded: a crash before the commit
 * redelivers the event, so handlers must be idempotent. A failing handler stops the member with its error, nothing
 * committed for that event, and the next member of the group gets the event again.
 */
export const makeConsume = (kafka: Kafka, topics: Topics, settings: ConsumeSettings) =>
<E, R>(options: ConsumeOptions<E, R>): Effect.Effect<never, EventLogError | E, R> =>
  Effect.scoped(Effect.gen(function*() {
    yield* Effect.forEach(options.topics, topics.partitions, { discard: true })
    const runtime = yield* Effect.context<R>()
    const outcome = yield* Deferred.make<never, EventLogError | E>()
    const handling = new Set<Fiber.Fiber<void, ToKafka>>()
    let stopped = false
    const stop = (cause: Cause.Cause<EventLogError | E>) =>
      Effect.andThen(Effect.sync(() => (stopped = true)), Deferred.failCause(outcome, cause))

    const handleBatch = (payload: EachBatchPayload) =>
      Effect.gen(function*() {
        const { batch } = payload
        const topic = topics.logical(batch.topic)
        // Set by a heartbeat during a long handler: rejoin as soon as the event in hand is committed.
        let rebalance: unknown = undefined
        const heartbeats = whileHeartbeating(payload.heartbeat, settings.heartbeatInterval, (error) =>
          isRebalancing(error)
            ? Effect.sync(() => (rebalance ??= error))
            : Effect.logWarning("Kafka heartbeat failed", String(error)))
        for (const message of batch.messages) {
          if (stopped || !payload.isRunning() || payload.isStale()) return
          const event: StoredEvent | undefined = yield* decodeMessage(topic, batch.partition, message).pipe(
            Effect.catch((error) => Effect.as(stop(Cause.fail(error)), undefined))
          )
          if (event === undefined) return
          const handled = yield* options.handle(event).pipe(
            annotateEventLogs(event),
            heartbeats,
            Effect.matchCauseEffect({
              onSuccess: () => Effect.succeed(true),
              onFailure: (cause) => (Cause.hasInterruptsOnly(cause) ? Effect.succeed(false) : Effect.as(stop(cause), false))
            })
          )
          if (!handled) return
          const nextOffset = String(event.offset + 1)
          yield* Effect.tryPromise({
            try: () =>
              payload.commitOffsetsIfNecessary({
                topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: nextOffset }] }]
              }),
            catch: (error) => new ToKafka({ error })
          }).pipe(
            Effect.tapError(({ error }) =>
              Effect.logWarning(
                `Kafka refused the commit after ${topic}/${batch.partition}@${event.offset} was handled; ` +
                  "the event will be handled again",
                String(error)
              )
            )
          )
          payload.resolveOffset(message.offset)
          if (rebalance !== undefined) return yield* new ToKafka({ error: rebalance })
          yield* Effect.tryPromise({ try: payload.heartbeat, catch: (error) => new ToKafka({ error }) })
        }
      }).pipe(Effect.annotateLogs({ group: options.group, topic: payload.batch.topic, partition: payload.batch.partition }))

    const consumer = yield* Effect.acquireRelease(
      Effect.sync(() =>
        kafka.consumer({
          groupId: topics.group(options.group),
          allowAutoTopicCreation: false,
          sessionTimeout: Duration.toMillis(settings.sessionTimeout),
          rebalanceTimeout: Duration.toMillis(settings.rebalanceTimeout),
          heartbeatInterval: Duration.toMillis(settings.heartbeatInterval),
          maxWaitTimeInMs: 1_000
        })
      ),
      // A handler in flight is interrupted (its event stays uncommitted), then the member leaves the group.
      (consumer) =>
        Effect.sync(() => (stopped = true)).pipe(
          Effect.andThen(Effect.forEach(handling, Fiber.interrupt, { discard: true })),
          Effect.andThen(Effect.promise(() => consumer.disconnect().catch(() => undefined)))
        )
    )
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      const failure = kafkaFailure(`consume ${options.topics.join(", ")} in group ${options.group}`)(payload.error)
      Effect.runForkWith(runtime)(
        payload.restart
          ? Effect.logWarning(`${failure.reason}; the member restarts`)
          : stop(Cause.fail(failure))
      )
    })
    yield* Effect.tryPromise({
      try: async () => {
        await consumer.connect()
        await consumer.subscribe({ topics: options.topics.map(topics.physical), fromBeginning: true })
        await consumer.run({
          autoCommit: false,
          eachBatchAutoResolve: false,
          eachBatch: async (payload) => {
            if (stopped) return
            const fiber = Effect.runForkWith(runtime)(handleBatch(payload))
            handling.add(fiber)
            const exit = await Effect.runPromiseWith(runtime)(Fiber.await(fiber)).finally(() => handling.delete(fiber))
            if (Exit.isFailure(exit)) {
              const failure = Cause.findErrorOption(exit.cause)
              if (failure._tag === "Some") throw failure.value.error
            }
          }
        })
      },
      catch: kafkaFailure(`join group ${options.group} on ${options.topics.join(", ")}`)
    })
    return yield* Deferred.await(outcome)
  }))
