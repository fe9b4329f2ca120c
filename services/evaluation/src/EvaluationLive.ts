import { Topics } from "@synth/contracts"
import { forkServiceConsumer } from "@synth/eventlog"
import { Effect, Layer } from "effect"
import { Evaluation } from "./Evaluation.ts"

/** The consumer group of the evaluation service: its members share the evaluation topic's partitions. */
export const evaluationGroup = "evaluation"

/**
 * The evaluation service for the life of the layer: a member of the `evaluation` group on the evaluation topic. A
 * failing handler (the blob store or the log unreachable) stops the member; it logs the cause and rejoins with
 * backoff, and the request is delivered again from the committed cursor. An evaluation in flight is interrupted with
 * the layer (its worker thread terminated) and runs again on redelivery. Needs the event log and the blob store.
 */
export const EvaluationLive = Layer.effectDiscard(
  Effect.flatMap(Evaluation, ({ handle }) =>
    forkServiceConsumer("evaluation", { group: evaluationGroup, topics: [Topics.evaluation.name], handle }))
).pipe(Layer.provide(Evaluation.layer))
