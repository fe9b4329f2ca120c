import { HttpServerResponse } from "effect/http"
import {
  DatasetId,
  NotCompleted,
  NotFound,
  type ProfilePending,
  UnableToAnalyze,
  userActor,
  type UserId
} from "@synth/contracts"
import { BlobKey, BlobStore } from "@synth/blobstore"
import { Context, Effect, Layer, Option, Schedule } from "effect"
import { GatewayConfig } from "../config.ts"
import { RequestEvents } from "../events/RequestEvents.ts"
import { finished, stillRunning } from "../waited.ts"
import { DatasetRepository, type DatasetRow } from "./DatasetRepository.ts"

/** Polls of the read model while a profile request waits for its outcome: 10 ms growing to 100 ms apart. */
const outcomePoll = Schedule.min([Schedule.exponential("10 millis", 1.5), Schedule.spaced("100 millis")])

/** uuid v7 ids in canonical lower-case form sort as text in the order they were minted. */
const answers = (row: DatasetRow, requestId: string) =>
  row.profileOutcomeRequestId !== null && row.profileOutcomeRequestId >= requestId

/**
 * POST and GET /datasets/{id}/profile. A request appends `dataset.profile-requested` and waits (PROFILE_TIMEOUT)
 * until the read model shows the profiling service's outcome of it, or of a later request for the same dataset;
 * the profile itself is JSON in the blob store, sent as stored. Scoped to the owner like every dataset query.
 */
export class ProfileService extends Context.Service<ProfileService>()("@synth/gateway/ProfileService", {
  make: Effect.gen(function* () {
    const datasets = yield* DatasetRepository
    const blobs = yield* BlobStore
    const requestEvents = yield* RequestEvents
    const config = yield* GatewayConfig

    const notFound = (id: string) =>
      new NotFound({ detail: `There is no dataset ${JSON.stringify(id.slice(0, 64))} among yours. List them with GET /datasets/.` })
    const noProfile = (id: string) => new NotFound({ detail: `No profile yet: run POST /datasets/${id}/profile first.` })

    const visible = (id: string, owner: UserId) =>
      Effect.flatMap(datasets.findVisible(id, owner), Option.match({ onNone: () => Effect.fail(notFound(id)), onSome: Effect.succeed }))

    /** The stored profile as it was written (JSON), checked to exist before the response starts. */
    const storedProfile = (row: DatasetRow) =>
      Effect.gen(function* () {
        if (row.profileBlobKey === null) return yield* noProfile(row.id)
        const key = BlobKey.make("datasets", row.id, "profile")
        // Gone meanwhile: the dataset was deleted between the read model and the blob store.
        yield* blobs.stat(key).pipe(Effect.catchTags({ BlobNotFound: () => Effect.fail(notFound(row.id)), BlobStoreError: Effect.die }))
        return HttpServerResponse.stream(blobs.get(key), { contentType: "application/json" })
      })

    const awaitOutcome = (id: string, requestId: string) =>
      datasets.findById(id).pipe(
        Effect.flatMap((row) =>
          Option.isNone(row) || answers(row.value, requestId) ? Effect.succeed(row) : Effect.fail("running" as const)
        ),
        Effect.retry(outcomePoll),
        Effect.timeoutOption(config.profileTimeout),
        Effect.map(Option.flatten),
        Effect.catch(() => Effect.succeed(Option.none<DatasetRow>()))
      )

    const request = Effect.fn("ProfileService.request")(function* (id: string, owner: UserId) {
      const row = yield* visible(id, owner)
      if (row.status !== "uploaded") {
        return yield* new NotCompleted({
          detail: `Dataset ${id} is still being processed. Poll GET /datasets/${id} until its status is uploaded, then profile it.`
        })
      }
      yield* requestEvents.commit(
        [{ type: "dataset.profile-requested", version: 1, payload: { datasetId: DatasetId.make(row.id) } }],
        {
          aggregateId: row.id,
          actor: userActor(owner),
          notVisibleDetail: "The profile request was recorded but is not visible yet. Retry in a moment."
        }
      )
      // The row now holds this request's id, or a later one's: either outcome answers this request.
      const requested = yield* datasets.findById(row.id)
      if (Option.isNone(requested) || requested.value.profileRequestId === null) return yield* notFound(id)
      const outcome = yield* awaitOutcome(row.id, requested.value.profileRequestId)
      if (Option.isNone(outcome)) {
        if (Option.isNone(yield* datasets.findById(row.id))) return yield* notFound(id)
        const pending: ProfilePending = { dataset_id: DatasetId.make(row.id), status: "running" }
        return stillRunning(pending)
      }
      const answered = outcome.value
      if (answered.profileStatus === "failed") {
        return yield* new UnableToAnalyze({
          detail: answered.profileFailureMessage ??
            "Unable to analyze the dataset. Download it, check its values and upload it again."
        })
      }
      return finished(yield* storedProfile(answered))
    })

    const get = Effect.fn("ProfileService.get")(function* (id: string, owner: UserId) {
      const row = yield* visible(id, owner)
      const running = row.profileRequestId !== null &&
        (row.profileOutcomeRequestId === null || row.profileOutcomeRequestId < row.profileRequestId)
      if (row.profileBlobKey === null && running) {
        return yield* new NotCompleted({
          detail: `Dataset ${id} is being profiled. Retry GET /datasets/${id}/profile in a moment.`
        })
      }
      return yield* storedProfile(row)
    })

    return { request, get } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make).pipe(Layer.provide([DatasetRepository.layer, RequestEvents.layer]))
}
