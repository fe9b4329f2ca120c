import { BlobKey, BlobStore } from "@synth/blobstore"
import {
  DatasetId,
  type DomainEvent,
  EvaluationId,
  GeneratorId,
  NotCompleted,
  userActor,
  type UserId
} from "@synth/contracts"
import { Context, Effect, Layer, Option } from "effect"
import { GatewayConfig } from "../config.ts"
import { RequestEvents } from "../events/RequestEvents.ts"
import { AuthService } from "./AuthService.ts"
import { type Owned, OwnedResources } from "./OwnedResources.ts"

const anythingRunning = (owned: Owned) =>
  owned.generators.some((generator) => generator.running) ||
  owned.runningSamples.length > 0 ||
  owned.evaluations.some((evaluation) => evaluation.running)

const describeRunning = (owned: Owned) =>
  [
    ...owned.generators.filter((generator) => generator.running).map((generator) => `generator ${generator.id} (cancelling)`),
    ...owned.runningSamples.map((sample) => `a sample of generator ${sample.generatorId}`),
    ...owned.evaluations.filter((evaluation) => evaluation.running).map((evaluation) => `evaluation ${evaluation.id}`)
  ].join(", ")

/**
 * DELETE /auth/me, the right to be forgotten (docs/audit.md). Once the password is confirmed: running generations
 * are cancelled and running work waited for (a job must not write blobs after its owner is gone), then every
 * evaluation, generator and dataset is deleted as the rest of the system deletes things, its blobs first and then
 * its `*.deleted` event (so a failure half-way leaves rows that a second request deletes), and last
 * `user.forgotten`, whose projection removes the account and destroys its key.
 */
export class ForgetService extends Context.Service<ForgetService>()("@synth/gateway/ForgetService", {
  make: Effect.gen(function* () {
    const auth = yield* AuthService
    const resources = yield* OwnedResources
    const requestEvents = yield* RequestEvents
    const blobs = yield* BlobStore
    const config = yield* GatewayConfig

    const deleteWith = (owner: UserId, aggregateId: string, blobPrefix: BlobKey, event: DomainEvent) =>
      Effect.gen(function* () {
        yield* blobs.removePrefix(blobPrefix).pipe(Effect.orDie)
        yield* requestEvents.commit([event], {
          aggregateId,
          actor: userActor(owner),
          notVisibleDetail: "The deletion is under way but not visible yet. Send DELETE /auth/me again in a moment."
        })
      })

    const stopRunningWork = Effect.fn("ForgetService.stopRunningWork")(function* (owner: UserId) {
      const owned = yield* resources.of(owner)
      if (!anythingRunning(owned)) return
      for (const generator of owned.generators.filter((candidate) => candidate.running)) {
        yield* requestEvents.commit(
          [{ type: "generator.cancel-requested", version: 1, payload: { generatorId: GeneratorId.make(generator.id) } }],
          {
            aggregateId: generator.id,
            actor: userActor(owner),
            notVisibleDetail: "The cancellation of a running generation was recorded but is not visible yet. Retry in a moment."
          }
        )
      }
      const stopped = Effect.gen(function* () {
        while (anythingRunning(yield* resources.of(owner))) yield* Effect.sleep("100 millis")
      })
      if (Option.isNone(yield* Effect.timeoutOption(stopped, config.cancelTimeout))) {
        return yield* new NotCompleted({
          detail:
            `Still running: ${describeRunning(yield* resources.of(owner))}. Nothing was deleted yet: send DELETE ` +
            "/auth/me again once it has ended (GET /generators/ and GET /evaluations/{id} show when)."
        })
      }
    })

    const eraseEverything = Effect.fn("ForgetService.eraseEverything")(function* (owner: UserId) {
      yield* stopRunningWork(owner)
      const owned = yield* resources.of(owner)
      for (const { id } of owned.evaluations) {
        yield* deleteWith(owner, id, BlobKey.make("evaluations", id), {
          type: "evaluation.deleted",
          version: 1,
          payload: { evaluationId: EvaluationId.make(id) }
        })
      }
      for (const { id } of owned.generators) {
        yield* deleteWith(owner, id, BlobKey.make("generators", id), {
          type: "generator.deleted",
          version: 1,
          payload: { generatorId: GeneratorId.make(id) }
        })
      }
      for (const id of owned.datasets) {
        yield* deleteWith(owner, id, BlobKey.make("datasets", id), {
          type: "dataset.deleted",
          version: 1,
          payload: { datasetId: DatasetId.make(id) }
        })
      }
    })

    const forget = (owner: UserId, password: string) => auth.forget(owner, password, eraseEverything(owner))

    return { forget } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([AuthService.layer, OwnedResources.layer, RequestEvents.layer]))
}
