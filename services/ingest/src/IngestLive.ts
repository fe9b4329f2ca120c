import { Topics } from "@synth/contracts"
import { forkServiceConsumer } from "@synth/eventlog"
import { Effect, Layer } from "effect"
import { Ingestion } from "./Ingestion.ts"

/** The consumer group of the ingest service: its members share the dataset topic's partitions. */
export const ingestGroup = "ingest"

/**
 * The ingest service for the life of the layer: a member of the `ingest` group on the dataset topic. A failing
 * handler (the blob store or the log unreachable, a defect) stops the member; it logs the cause and rejoins with
 * backoff, and the event is delivered again from the committed cursor: no file is skipped silently.
 * Needs the event log and the blob store.
 */
export const IngestLive = Layer.effectDiscard(
  Effect.flatMap(Ingestion, ({ handle }) =>
    forkServiceConsumer("ingest", { group: ingestGroup, topics: [Topics.dataset.name], handle }))
).pipe(Layer.provide(Ingestion.layer))
