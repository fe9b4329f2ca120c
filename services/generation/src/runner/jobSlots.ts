import type { EventEnvelope, GeneratorId } from "@synth/contracts"
import { Cause, Deferred, Effect, Fiber, Metric, Scope, Semaphore } from "effect"
import { LocalJobs } from "../LocalJobs.ts"

/** Prometheus gauges of this process's jobs: waiting for a GENERATION_CONCURRENCY slot, and holding one. */
const queuedJobs = Metric.gauge("generation_jobs_queued", {
  description: "Generation jobs (training or sampling) in this process waiting for a free GENERATION_CONCURRENCY slot."
})
const runningJobs = Metric.gauge("generation_jobs_running", {
  description: "Generation jobs (training or sampling) running in this process."
})

export interface SlotRequest {
  readonly generatorId: GeneratorId
  readonly attempt: number
  /** The event that started the job: the cause of what is decided about it later here (a hand-back). */
  readonly cause: EventEnvelope
  readonly run: Effect.Effect<void, unknown>
  /** A training is registered with LocalJobs, where a cancel request finds and interrupts it; a sample is not. */
  readonly cancellable: boolean
  /**
   * Asked once the slot is free, before the job runs: false gives the slot back unused (the job was cancelled or
   * ended while it waited). It appends what starting the job means (`generator.started`).
   */
  readonly admit: Effect.Effect<boolean>
}

/**
 * At most `concurrency` jobs at once in this process. `start` waits for a free slot, then starts the job in the
 * background and returns: the dispatcher's cursor moves on once the job is registered (a crash from here on is the
 * watchdog's to notice). Jobs run in a scope of their own, closed with the caller's scope after the finalizers the
 * caller adds later (the runner's hand-back runs first).
 */
export const makeJobSlots = (concurrency: number) =>
  Effect.gen(function* () {
    const localJobs = yield* LocalJobs
    const permits = yield* Semaphore.make(concurrency)
    // Registers both gauges, so a scrape shows 0 before the first job rather than nothing.
    yield* Metric.modify(queuedJobs, 0)
    yield* Metric.modify(runningJobs, 0)
    const jobScope = yield* Scope.fork(yield* Effect.scope, "sequential")

    const start = ({ admit, attempt, cancellable, cause, generatorId, run }: SlotRequest) =>
      Effect.gen(function* () {
        yield* Metric.modify(queuedJobs, 1)
        yield* permits.take(1).pipe(Effect.ensuring(Metric.modify(queuedJobs, -1)))
        if (!(yield* Effect.onError(admit, () => permits.release(1)))) {
          yield* permits.release(1)
          return
        }
        yield* Metric.modify(runningJobs, 1)
        const release = Effect.andThen(Metric.modify(runningJobs, -1), permits.release(1))
        // Registered before it runs, so a cancel request never finds the job neither here nor registered.
        const registered = yield* Deferred.make<void>()
        const fiber = yield* Deferred.await(registered).pipe(
          Effect.andThen(run),
          Effect.catchCause((failure) =>
            Cause.hasInterruptsOnly(failure) ? Effect.void : Effect.logError("generation job failed unexpectedly", failure)
          ),
          Effect.ensuring(release),
          Effect.annotateLogs({ generatorId, attempt }),
          Effect.forkIn(jobScope)
        )
        if (cancellable) {
          yield* localJobs.register(generatorId, { fiber, attempt, cause })
          yield* Effect.forkIn(Effect.andThen(Fiber.await(fiber), localJobs.unregister(generatorId, fiber)), jobScope)
        }
        yield* Deferred.succeed(registered, undefined)
      })

    /** Runs `effect` holding one more slot if one is free now (a training's second thread); None when none is. */
    const withSpareSlot = <A, E, R>(effect: Effect.Effect<A, E, R>) => permits.withPermitsIfAvailable(1)(effect)

    return { start, withSpareSlot } as const
  })
