import { consumedBy, type EventEnvelope, type GeneratorId, serviceActor, Topics } from "@synth/contracts"
import { EventLog, EventWriter, type StoredEvent, understoodEvent } from "@synth/eventlog"
import { GeneratorJob } from "@synth/jobs"
import { Clock, Context, Duration, Effect, Layer, Option, Result, Schedule, Stream, SubscriptionRef } from "effect"
import { appendDecided } from "./appendDecided.ts"
import { GenerationConfig } from "./GenerationConfig.ts"
import { LocalJobs } from "./LocalJobs.ts"

export const generationActor = serviceActor("generation")

const monitored = consumedBy("generationJobMonitor")

/** What the log says about one job so far: its lifecycle (the decider's state) and when it last showed life. */
export interface MonitoredJob {
  readonly request: GeneratorJob.RequestedGeneration
  readonly state: GeneratorJob.State
  /** The job's latest event: the cause of what the watchdog decides about it (so every instance derives one id). */
  readonly lastEvent: EventEnvelope
  /** When the log accepted the job's latest event (epoch ms), or when the watchdog last decided about it. */
  readonly lastActivity: number
}

/**
 * Every generation instance follows the whole generator topic (all partitions, no consumer group) and folds it
 * into the state of every job (`GeneratorJob.evolve`). With it:
 * - a cancel request reaches the instance that runs the job, whichever partition owner dispatched it: that one
 *   interrupts its worker and appends `generator.cancelled`; a job still queued is cancelled at once by any instance
 *   (ids are derived from the cancel request, so the instances' appends are one event);
 * - the watchdog finds started jobs whose worker went silent for GENERATION_STALL_TIMEOUT (its process crashed:
 *   a live one sends a heartbeat every GENERATION_HEARTBEAT) and lets the decider requeue them with the next
 *   attempt, or fail them (`worker_lost`) once GENERATION_MAX_ATTEMPTS were lost. Never stuck in `running`;
 * - the dispatcher (Generation.ts) and the runner read the state as of the event they handle (awaitFolded).
 */
export class JobMonitor extends Context.Service<JobMonitor>()("@synth/generation/JobMonitor", {
  make: Effect.gen(function* () {
    const log = yield* EventLog
    const writer = yield* EventWriter
    const localJobs = yield* LocalJobs
    const config = yield* GenerationConfig
    const topic = Topics.generator.name
    const jobs = new Map<string, MonitoredJob>()
    const partitions = yield* log.partitions(topic).pipe(Effect.orDie)
    /** Per partition: the next offset to fold; waiters wake on its changes. */
    const folded = yield* Effect.forEach(Array.from({ length: partitions }), () => SubscriptionRef.make(0))

    const outcome = (job: MonitoredJob, causationId: string) => ({
      aggregateId: job.request.generatorId,
      actor: generationActor,
      correlationId: job.lastEvent.correlationId,
      causationId,
      eventIds: "derived" as const
    })

    const decideAndAppend = (job: MonitoredJob, command: GeneratorJob.Command, causationId: string) =>
      Effect.gen(function* () {
        // These commands are refused only for a job that is gone: then, as for a job they do not concern, nothing
        // is appended.
        const events = Result.getOrElse(GeneratorJob.decide(command, job.state), () => [])
        yield* appendDecided(writer, events, outcome(job, causationId))
        return events
      })

    /** A job running here is interrupted first: the decider needs to know which attempt stopped. */
    const cancel = (job: MonitoredJob, cancelRequestId: string) =>
      Effect.gen(function* () {
        if (!GeneratorJob.isJob(job.state) || job.state.status !== "running") return
        const interruptedAttempt = yield* localJobs.interrupt(job.request.generatorId)
        yield* decideAndAppend(job, { _tag: "Cancel", interruptedAttempt }, cancelRequestId)
      })

    const fold = (stored: StoredEvent) =>
      Effect.gen(function* () {
        const understood = yield* understoodEvent(stored, "generation")
        if (Option.isNone(understood)) return
        const event = understood.value
        if (!monitored(event)) return
        const known = jobs.get(stored.key)
        // A job is known from its first request on; a request delivered again changes nothing.
        if (event.type === "generator.requested" && known !== undefined) return
        const request = known?.request ?? (event.type === "generator.requested" ? event.payload : undefined)
        if (request === undefined) return
        const job: MonitoredJob = {
          request,
          state: GeneratorJob.evolve(known?.state ?? GeneratorJob.initialState, event),
          lastEvent: stored.envelope,
          lastActivity: Date.parse(stored.appendedAt)
        }
        jobs.set(stored.key, job)
        if (event.type === "generator.cancel-requested") yield* cancel(job, stored.envelope.eventId)
      })

    const followPartition = (partition: number) =>
      log.read({ topic, partition, fromOffset: 0, follow: true }).pipe(
        Stream.runForEach((stored) =>
          Effect.andThen(fold(stored), SubscriptionRef.set(folded[partition]!, stored.offset + 1))
        )
      )

    /** A started job not running here whose latest event is older than the stall timeout. */
    const silent = (job: MonitoredJob, now: number) =>
      GeneratorJob.isJob(job.state) && job.state.status === "running" && job.state.started &&
      !localJobs.isRunning(job.request.generatorId) && now - job.lastActivity >= Duration.toMillis(config.stallTimeout)

    /** Decides about started jobs whose worker went silent (see the class comment). */
    const watch = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const lost: GeneratorJob.Command = {
        _tag: "DeclareWorkerLost",
        maxAttempts: config.maxAttempts,
        stallTimeout: Duration.format(config.stallTimeout)
      }
      for (const job of Array.from(jobs.values()).filter((candidate) => silent(candidate, now))) {
        const generatorId = job.request.generatorId
        const attempt = GeneratorJob.isJob(job.state) ? job.state.attempt : 0
        yield* Effect.logWarning("generation worker lost: no heartbeat", { generatorId, attempt, silentForMs: now - job.lastActivity })
        const [decided] = yield* decideAndAppend(job, lost, job.lastEvent.eventId)
        if (decided?.type === "generator.requeued") {
          yield* Effect.logWarning("generation job requeued", { generatorId, attempt: decided.payload.attempt })
        } else if (decided?.type === "generator.failed") {
          yield* Effect.logError("generation job failed: its worker was lost on every attempt", { generatorId, attempts: attempt })
        }
        // Until the decision is folded back in, do not decide again. Read the entry again: the follower may have
        // folded the decision in while it was being appended, and writing back `job` would undo that fold (the
        // job would look started, and every requeue be refused as "attempt 1 has started").
        const current = jobs.get(generatorId)
        if (current !== undefined) jobs.set(generatorId, { ...current, lastActivity: Math.max(current.lastActivity, now) })
      }
    })

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
      SubscriptionRef.changes(folded[partition]!).pipe(
        Stream.filter((next) => next > offset),
        Stream.take(1),
        Stream.runDrain
      )

    return {
      job: (generatorId: GeneratorId | string): MonitoredJob | undefined => jobs.get(generatorId),
      awaitFolded
    } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([EventWriter.layer]))
}
