import { Topics } from "@synth/contracts"
import { EventLog } from "@synth/eventlog"
import { Effect, Layer, Schedule } from "effect"
import { Generation } from "./Generation.ts"
import { JobMonitor } from "./JobMonitor.ts"
import { JobRunner } from "./JobRunner.ts"
import { LocalJobs } from "./LocalJobs.ts"

/** The consumer group of the generation service: its members share the generator topic's partitions. */
export const generationGroup = "generation"

// Exponential from 200 ms, at most 30 s apart; a minute without failing starts the backoff over.
const retrySchedule = Schedule.exponential("200 millis").pipe(
  Schedule.union(Schedule.spaced("30 seconds")),
  Schedule.resetAfter("1 minute")
)

/**
 * The generation service for the life of the layer: the dispatcher (a member of the `generation` group), the job
 * monitor (cancellation and the watchdog) and the job runner. Jobs in flight are interrupted with the layer (their
 * worker threads terminated); the watchdog of this or another instance restarts them. Needs the event log and the
 * blob store.
 */
export const GenerationLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const log = yield* EventLog
    const generation = yield* Generation
    yield* log.consume({ group: generationGroup, topics: [Topics.generator.name], handle: generation.handle }).pipe(
      Effect.sandbox,
      Effect.tapError((cause) => Effect.logError("generation consumer failed; rejoining", cause)),
      Effect.retry(retrySchedule),
      Effect.annotateLogs({ service: "generation" }),
      Effect.forkScoped
    )
  })
).pipe(
  Layer.provide(Generation.Default),
  Layer.provide(Layer.merge(JobMonitor.Default, JobRunner.Default)),
  Layer.provide(LocalJobs.Default)
)
