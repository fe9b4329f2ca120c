import { consumedBy } from "@synth/contracts"
import { EventWriter, type StoredEvent, understoodEvent } from "@synth/eventlog"
import { absurd, Context, Effect, Layer, Option } from "effect"
import { generationActor, JobMonitor } from "./JobMonitor.ts"
import { JobRunner } from "./JobRunner.ts"

const dispatched = consumedBy("generationDispatcher")

/**
 * The dispatcher: a member of the `generation` consumer group on the generator topic. It starts the jobs of
 * `generator.requested` and `generator.requeued` and the samples of `generator.sample-requested`, each once a slot
 * is free (JobRunner), reading the job's state as of the event (JobMonitor) so that a redelivered, cancelled,
 * finished or superseded request starts nothing.
 */
export class Generation extends Context.Service<Generation>()("@synth/generation/Generation", {
  make: Effect.gen(function* () {
    const monitor = yield* JobMonitor
    const runner = yield* JobRunner
    const writer = yield* EventWriter

    const handle = Effect.fn("Generation.handle")(function* (stored: StoredEvent) {
      const understood = yield* understoodEvent(stored, "generation")
      if (Option.isNone(understood)) return
      const event = understood.value
      if (!dispatched(event)) return
      yield* monitor.awaitFolded(stored.partition, stored.offset)
      const state = monitor.job(stored.key)
      if (state === undefined) return yield* Effect.logWarning("a generator event for an unknown job; ignored")
      // Asked again once a slot is free: the job may have been cancelled while it waited in the queue.
      const stillWanted = Effect.sync(() => {
        const current = monitor.job(stored.key)
        return current !== undefined && current.terminal === null && current.cancelRequestId === null
      })
      switch (event.type) {
        case "generator.requested":
          if (state.terminal !== null || state.attempt !== 0 || state.cancelRequestId !== null) return
          return yield* runner.startTraining(state.request, 1, stored.envelope, stillWanted)
        case "generator.requeued":
          if (state.terminal !== null || state.started || state.attempt !== event.payload.attempt) return
          return yield* runner.startTraining(state.request, event.payload.attempt, stored.envelope, stillWanted)
        case "generator.sample-requested": {
          const { generatorId, outputDatasetId } = event.payload
          if (state.modelBlobKey === null) {
            return yield* writer.append(
              [{
                type: "generator.sample-failed",
                version: 1,
                payload: {
                  generatorId,
                  outputDatasetId,
                  reason: "training_failed",
                  message: "The generator has no stored model to sample from."
                }
              }],
              {
                aggregateId: generatorId,
                actor: generationActor,
                correlationId: stored.envelope.correlationId,
                causationId: stored.envelope.eventId,
                eventIds: "derived"
              }
            )
          }
          return yield* runner.startSampling({ ...event.payload, modelBlobKey: state.modelBlobKey }, stored.envelope)
        }
        default:
          return absurd<void>(event)
      }
    }, (effect, stored) => Effect.annotateLogs(effect, { eventId: stored.envelope.eventId, generatorId: stored.key }))

    return { handle } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([EventWriter.layer]))
}
