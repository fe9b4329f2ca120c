import { Duration, Effect, Schedule } from "effect"

const firstDelayMillis = 200
const longestDelayMillis = 30_000
const quietMillisToReset = 60_000

/**
 * How a consumer (a service's group member, a projection's follower) retries after it failed: exponential from
 * 200 ms, at most 30 s apart, and a minute without failing starts the backoff over. Effect 4 has no
 * `Schedule.resetAfter`, so the reset reads the time since the previous failure from the schedule's metadata.
 */
export const rejoinSchedule: Schedule.Schedule<Duration.Duration> = Schedule.fromStepWithMetadata(Effect.sync(() => {
  let failures = 0
  return (step: Schedule.InputMetadata<unknown>) => {
    if (step.elapsedSincePrevious > quietMillisToReset) failures = 0
    const delay = Duration.millis(Math.min(firstDelayMillis * 2 ** failures++, longestDelayMillis))
    return Effect.succeed([delay, delay] as [Duration.Duration, Duration.Duration])
  }
}))
