import { Topics } from "@synth/contracts"
import { forkServiceConsumer } from "@synth/eventlog"
import { Effect, Layer } from "effect"
import { Generation } from "./Generation.ts"
import { JobMonitor } from "./JobMonitor.ts"
import { JobRunner } from "./JobRunner.ts"
import { LocalJobs } from "./LocalJobs.ts"

/** The consumer group of the generation service: its members share the generator topic's partitions. */
export const generationGroup = "generation"

/**
 * The generation service for the life of the layer: the dispatcher (a member of the `generation` group), the job
 * monitor (cancellation and the watchdog) and the job runner. Jobs in flight are interrupted with the layer (their
 * worker threads terminated); the watchdog of this or another instance restarts them. Needs the event log and the
 * blob store.
 */
export const GenerationLive = Layer.effectDiscard(
  Effect.flatMap(Generation, ({ handle }) =>
    forkServiceConsumer("generation", { group: generationGroup, topics: [Topics.generator.name], handle }))
).pipe(
  Layer.provide(Generation.layer),
  // The runner asks the monitor's state of a job before it starts it; the monitor outlives it (built first).
  Layer.provide(JobRunner.layer.pipe(Layer.provideMerge(JobMonitor.layer))),
  Layer.provide(LocalJobs.layer)
)
