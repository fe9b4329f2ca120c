import { Effect } from "effect"
import { type ConsumeOptions, EventLog } from "../EventLog.ts"
import { rejoinSchedule } from "./rejoinSchedule.ts"

/**
 * Runs `self` again on `rejoinSchedule` after every failure or defect, logging the cause with `message` first. A
 * consumer's work is redelivered from its committed cursor, so starting over loses nothing; giving up would leave the
 * partition unread until the process restarts.
 */
export const retryRejoining = (message: string) => <A, E, R>(self: Effect.Effect<A, E, R>) =>
  self.pipe(
    Effect.sandbox,
    Effect.tapError((cause) => Effect.logError(message, cause)),
    Effect.retry(rejoinSchedule)
  )

/**
 * A service's member of its consumer group for the life of the scope: a failing handler (the blob store or the log
 * unreachable, a defect) stops the member, which logs the cause and rejoins with backoff, and the event is delivered
 * again from the committed cursor. The logs carry `service`.
 */
export const forkServiceConsumer = <E, R>(service: string, options: ConsumeOptions<E, R>) =>
  Effect.flatMap(EventLog, (log) => log.consume(options)).pipe(
    retryRejoining(`${service} consumer failed; rejoining`),
    Effect.annotateLogs({ service }),
    Effect.forkScoped
  )
