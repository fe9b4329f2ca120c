import { Topics } from "@synth/contracts"
import { forkServiceConsumer } from "@synth/eventlog"
import { Effect, Layer } from "effect"
import { AiLayerLive } from "./ai/aiLayerLive.ts"
import { Privacy } from "./Privacy.ts"

/** The consumer group of the privacy service: its members share the dataset topic's partitions. */
export const privacyGroup = "privacy"

/**
 * The privacy service for the life of the layer: a member of the `privacy` group on the dataset topic. A failing
 * handler (the blob store or the log unreachable) stops the member; it logs the cause and rejoins with backoff, and
 * the request is delivered again from the committed cursor. Needs the event log and the blob store; the AI layer
 * comes from the settings (PrivacyConfig).
 */
export const PrivacyLive = Layer.effectDiscard(
  Effect.flatMap(Privacy, ({ handle }) =>
    forkServiceConsumer("privacy", { group: privacyGroup, topics: [Topics.dataset.name], handle }))
).pipe(Layer.provide(Privacy.layer), Layer.provide(AiLayerLive))
