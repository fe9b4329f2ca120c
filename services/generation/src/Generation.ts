import { consumedBy } from "@synth/contracts"
import { EventWriter, type StoredEvent, understoodEvent } from "@synth/eventlog"
import { GeneratorJob } from "@synth/jobs"
import { absurd, Context, Effect, Layer, Option, Result } from "effect"
import { appendDecided } from "./appendDecided.ts"
import { GenerationConfig } from "./GenerationConfig.ts"
import { generationActor, JobMonitor } from "./JobMonitor.ts"
import { JobRunner } from "./JobRunner.ts"

const dispatched = consumedBy("generationDispatcher")

/**
 * The dispatcher: a member of the `generation` consumer group on the generator topic. It starts the jobs of
 * `generator.requested` and `generator.requeued` and the samples of `generator.sample-requested`, each once a slot
 * is free (JobRunner), asking the decider on the job's state as of the event (JobMonitor) so that a redelivered,
 * cancelled, finished or superseded request starts nothing.
 */
export class Generation extends Context.Service<Generation>()("@synth/generation/Generation", {
  make: Effect.gen(function* () {
    const monitor = yield* JobMonitor
    const runner = yield* JobRunner
    const writer = yield* EventWriter
    const config = yield* GenerationConfig

    const handle = Effect.fn("Generation.handle")(function* (stored: StoredEvent) {
      const understood = yield* understoodEvent(stored, "generation")
      if (Option.isNone(understood)) return
      const event = understood.value
      if (!dispatched(event)) return
      yield* monitor.awaitFolded(stored.partition, stored.offset)
      const job = monitor.job(stored.key)
      if (job === undefined) return yield* Effect.logWarning("a generator event for an unknown job; ignored")
      switch (event.type) {
        case "generator.requested":
        case "generator.requeued": {
          const attempt = event.type === "generator.requested" ? 1 : event.payload.attempt
          const decided = GeneratorJob.decide({ _tag: "Start", attempt, worker: config.instanceId }, job.state)
          if (Result.isFailure(decided)) return yield* Effect.logDebug("not dispatched", { attempt, refusal: decided.failure })
          // The runner asks again once a slot is free: the job may be cancelled while it waits in the queue.
          return yield* runner.startTraining(job.request, attempt, stored.envelope)
        }
        case "generator.sample-requested": {
          const decided = GeneratorJob.decide({ _tag: "StartSample", outputDatasetId: event.payload.outputDatasetId }, job.state)
          if (Result.isFailure(decided)) return yield* Effect.logDebug("sample not dispatched", { refusal: decided.failure })
          const modelBlobKey = GeneratorJob.isJob(job.state) ? job.state.modelBlobKey : null
          if (decided.success.length > 0 || modelBlobKey === null) {
            return yield* appendDecided(writer, decided.success, {
              aggregateId: event.payload.generatorId,
              actor: generationActor,
              correlationId: stored.envelope.correlationId,
              causationId: stored.envelope.eventId,
              eventIds: "derived"
            })
          }
          return yield* runner.startSampling({ ...event.payload, modelBlobKey }, stored.envelope)
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
