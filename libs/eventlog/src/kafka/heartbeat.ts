import { type Duration, Effect } from "effect"

/** kafkajs' heartbeat errors that mean "the group is rebalancing: rejoin" (kafkajs does not export its own check). */
export const isRebalancing = (error: unknown) => {
  const type = (error as { readonly type?: unknown } | null)?.type
  return type === "REBALANCE_IN_PROGRESS" || type === "NOT_COORDINATOR_FOR_GROUP" || type === "ILLEGAL_GENERATION"
}

/**
 * Runs `effect` while a background fiber calls `heartbeat` every `interval`, so a member that is busy (a long
 * handler, a reader waiting for its consumer) stays in its group for as long as it is healthy. kafkajs only
 * heartbeats between batches by itself, so without this the group would drop the member after its session timeout.
 */
export const whileHeartbeating = (
  heartbeat: () => Promise<void>,
  interval: Duration.Duration,
  onError: (error: unknown) => Effect.Effect<void>
) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.scoped(
    Effect.andThen(
      Effect.sleep(interval).pipe(
        Effect.andThen(Effect.tryPromise(heartbeat)),
        Effect.catch((failure) => onError(failure.cause)),
        Effect.forever,
        Effect.forkScoped
      ),
      effect
    )
  )
