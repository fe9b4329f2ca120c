import { Topics } from "@synth/contracts"
import { forkServiceConsumer } from "@synth/eventlog"
import { Effect, Layer } from "effect"
import { Profiling } from "./Profiling.ts"

/** The consumer group of the profiling service: its members share the dataset topic's partitions. */
export const profilingGroup = "profiling"

/**
 * The profiling service for the life of the layer: a member of the `profiling` group on the dataset topic. A
 * failing handler (the blob store or the log unreachable) stops the member; it logs the cause and rejoins with
 * backoff, and the request is delivered again from the committed cursor. Needs the event log and the blob store.
 */
export const ProfilingLive = Layer.effectDiscard(
  Effect.flatMap(Profiling, ({ handle }) =>
    forkServiceConsumer("profiling", { group: profilingGroup, topics: [Topics.dataset.name], handle }))
).pipe(Layer.provide(Profiling.layer))
