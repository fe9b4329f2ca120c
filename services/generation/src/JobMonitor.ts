import {
  consumedBy,
  type DomainEventOf,
  type EventEnvelope,
  type GeneratorId,
  serviceActor,
  Topics
} from "@synth/contracts"
import { EventLog, EventWriter, type StoredEvent, understoodEvent } from "@synth/eventlog"
import { Context, Duration, Effect, Layer, Option, Schedule, Stream } from "effect"
import { GenerationConfig } from "./GenerationConfig.ts"
import { LocalJobs } from "./LocalJobs.ts"

export const generationActor = serviceActor("generation")

const monitored = consumedBy("generationJobMonitor")

export type JobRequest = DomainEventOf<"generator.requested">["payload"]

/** What the log says about one job so far. */
export interface JobState {
  readonly request: JobRequest
  /** The latest attempt started or requeued; 0 before the first start. */
  attempt: number
  /** Whether `attempt` has started (false while it waits for a worker). */
  started: boolean
  terminal: "completed" | "failed" | "cancelled" | null
  /** The cancel request's event id, once one came. */
  cancelRequestId: string | null
  /** The stored model's blob key once completed. */
  modelBlobKey: string | null
  /** The job's latest event: the cause of what the watchdog decides about it (so every instance derives one id). */
  lastEvent: EventEnvelope
  /** When the log accepted the job's latest event (epoch ms). */
  lastActivity: number
}

/**
 * Every generation instance follows the whole generator topic (all partitions, no consumer group) and folds it
 * into the state of every job. With it:
 * - a cancel request reaches the instance that runs the job, whichever partition owner dispatched it: that one
 *   interrupts its worker and appends `generator.cancelled`; a job still queued is cancelled at once by any instance
 *   (ids are derived from the cancel request, so the instances' appends are one event);
 * - the watchdog finds started jobs whose worker went silent for GENERATION_STALL_TIMEOUT (its process crashed:
 *   a live one sends a heartbeat every GENERATION_HEARTBEAT) and requeues them with the next attempt, or fails them
 *   (`worker_lost`) once GENERATION_MAX_ATTEMPTS were lost. Never stuck in `running`;
 * - the dispatcher (Generation.ts) reads the state as of the event it handles (awaitFolded).
 */
export class JobMonitor extends Context.Service<JobMonitor>()("@synth/generation/JobMonitor", {
  make: Effect.gen(function* () {
    const log = yield* EventLog
    const writer = yield* EventWriter
    const localJobs = yield* LocalJobs
    const config = yield* GenerationConfig
    const topic = Topics.generator.name
    const jobs = new Map<string, JobState>()
    /** Per partition: the next offset to fold. */
    const folded = new Map<number, number>()

    const outcome = (state: JobState, causationId: string) => ({
      aggregateId: state.request.generatorId,
      actor: generationActor,
      correlationId: state.lastEvent.correlationId,
      causationId,
      eventIds: "derived" as const
    })

    const cancel = (state: JobState, cancelRequestId: string) =>
      Effect.gen(function* () {
        const interruptedAttempt = yield* localJobs.interrupt(state.request.generatorId)
        const attempt = interruptedAttempt ?? (state.started ? null : state.attempt === 0 ? null : state.attempt)
        // A job started elsewhere is that instance's to stop (or the watchdog's, if that instance is gone).
        if (interruptedAttempt === null && state.started) return
        yield* writer.append(
          [{ type: "generator.cancelled", version: 1, payload: { generatorId: state.request.generatorId, attempt } }],
          outcome(state, cancelRequestId)
        )
      })

    const fold = (stored: StoredEvent) =>
      Effect.gen(function* () {
        const understood = yield* understoodEvent(stored, "generation")
        if (Option.isNone(understood)) return
        const event = understood.value
        if (!monitored(event)) return
        const at = Date.parse(stored.appendedAt)
        if (event.type === "generator.requested") {
          if (!jobs.has(stored.key)) {
            jobs.set(stored.key, {
              request: event.payload,
              attempt: 0,
              started: false,
              terminal: null,
              cancelRequestId: null,
              modelBlobKey: null,
              lastEvent: stored.envelope,
              lastActivity: at
            })
          }
          return
        }
        const state = jobs.get(stored.key)
        if (state === undefined) return
        state.lastEvent = stored.envelope
        state.lastActivity = at
        switch (event.type) {
          case "generator.requeued":
            state.attempt = event.payload.attempt
            state.started = false
            return
          case "generator.started":
            state.attempt = event.payload.attempt
            state.started = true
            return
          case "generator.completed":
            state.terminal ??= "completed"
            state.modelBlobKey = event.payload.model.blobKey
            return
          case "generator.failed":
            state.terminal ??= "failed"
            return
          case "generator.cancelled":
            state.terminal ??= "cancelled"
            return
          case "generator.cancel-requested":
            state.cancelRequestId = stored.envelope.eventId
            if (state.terminal === null) yield* cancel(state, stored.envelope.eventId)
            return
          default:
            return
        }
      })

    const followPartition = (partition: number) =>
      log.read({ topic, partition, fromOffset: 0, follow: true }).pipe(
        Stream.runForEach((stored) =>
          Effect.andThen(fold(stored), Effect.sync(() => folded.set(partition, stored.offset + 1)))
        )
      )

    /** Decides about started jobs whose worker went silent (see the class comment). */
    const watch = Effect.gen(function* () {
      const now = Date.now()
      const stall = Duration.toMillis(config.stallTimeout)
      for (const state of jobs.values()) {
        if (state.terminal !== null || !state.started || localJobs.isRunning(state.request.generatorId)) continue
        if (now - state.lastActivity < stall) continue
        const generatorId = state.request.generatorId
        const cause = state.lastEvent.eventId
        yield* Effect.logWarning("generation worker lost: no heartbeat", {
          generatorId,
          attempt: state.attempt,
          silentForMs: now - state.lastActivity
        })
        if (state.cancelRequestId !== null) {
          yield* writer.append(
            [{ type: "generator.cancelled", version: 1, payload: { generatorId, attempt: state.attempt } }],
            outcome(state, cause)
          )
        } else if (state.attempt < config.maxAttempts) {
          const message = `No heartbeat from the worker of attempt ${state.attempt} for ` +
            `${Duration.format(config.stallTimeout)}: started again as attempt ${state.attempt + 1}.`
          yield* writer.append(
            [{ type: "generator.requeued", version: 1, payload: { generatorId, attempt: state.attempt + 1, message } }],
            outcome(state, cause)
          )
          yield* Effect.logWarning("generation job requeued", { generatorId, attempt: state.attempt + 1 })
        } else {
          const message = `The worker running this job was lost ${state.attempt} times (no heartbeat for ` +
            `${Duration.format(config.stallTimeout)}). Start a new generation; if it happens again, use fewer rows.`
          yield* writer.append(
            [{ type: "generator.failed", version: 1, payload: { generatorId, attempt: state.attempt, reason: "worker_lost", message } }],
            outcome(state, cause)
          )
          yield* Effect.logError("generation job failed: its worker was lost on every attempt", { generatorId, attempts: state.attempt })
        }
        // Until the decision is folded back in, do not decide again.
        state.lastActivity = now
      }
    })

    const partitions = yield* log.partitions(topic).pipe(Effect.orDie)
    yield* Effect.forEach(Array.from({ length: partitions }, (_, partition) => partition), (partition) =>
      followPartition(partition).pipe(
        Effect.tapCause((cause) => Effect.logError("following the generator topic failed; retrying", cause)),
        Effect.retry(Schedule.spaced("1 second")),
        Effect.forkScoped
      ), { discard: true })
    yield* watch.pipe(
      Effect.catchCause((cause) => Effect.logError("generation watchdog failed", cause)),
      Effect.repeat(Schedule.spaced(Duration.min(config.heartbeat, config.stallTimeout))),
      Effect.forkScoped
    )

    /** Waits until the event at this position is folded in, so `job` answers as of that event. */
    const awaitFolded = (partition: number, offset: number) =>
      Effect.suspend(() => ((folded.get(partition) ?? 0) > offset ? Effect.void : Effect.fail("behind" as const))).pipe(
        Effect.retry(Schedule.spaced("20 millis")),
        Effect.orDie
      )

    return {
      job: (generatorId: GeneratorId | string): JobState | undefined => jobs.get(generatorId),
      awaitFolded
    } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([EventWriter.layer]))
}
