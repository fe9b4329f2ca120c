// ForgetService over the gateway's real read models (PGlite), an in-memory log and blob store, with no generation
// service running: a wrong password deletes nothing; a running generation is asked to stop and, while it has not,
// the request answers 409 and deletes nothing; once it stopped, everything goes, then the account and its key.
import { describe, expect, it } from "@effect/vitest"
import { PasswordHasher, TokensLive } from "@synth/auth"
import { BlobKey, BlobStore, layerMemory as BlobStoreMemory } from "@synth/blobstore"
import { type DatasetId, type DomainEvent, type GeneratorId, userActor, type UserId } from "@synth/contracts"
import { EventLog, Ids, layerMemory as EventLogMemory } from "@synth/eventlog"
import { layerMigrations, ProjectorRuntime } from "@synth/sql"
import { layerEmbeddedTest } from "@synth/sql/testing"
import { ConfigProvider, Effect, Layer, Option, Result, Stream } from "effect"
import { RequestEvents } from "../events/RequestEvents.ts"
import { gatewayMigrations, gatewayProjections } from "../readModels.ts"
import { AuthService } from "./AuthService.ts"
import { ForgetService } from "./ForgetService.ts"
import { OwnedResources } from "./OwnedResources.ts"
import { UserKeys } from "./UserKeys.ts"

const TestLayer = Layer.mergeAll(ForgetService.layer, ProjectorRuntime.layerRunning).pipe(
  Layer.provideMerge(Layer.mergeAll(AuthService.layer, OwnedResources.layer, RequestEvents.layer, UserKeys.layer)),
  Layer.provideMerge(
    ProjectorRuntime.layer(gatewayProjections).pipe(
      Layer.provide(layerMigrations([gatewayMigrations])),
      Layer.provide(UserKeys.layer)
    )
  ),
  Layer.provideMerge(Layer.mergeAll(TokensLive, PasswordHasher.layer, Ids.layer)),
  Layer.provideMerge(Layer.mergeAll(layerEmbeddedTest, EventLogMemory(), BlobStoreMemory)),
  Layer.provide(
    ConfigProvider.layer(
      ConfigProvider.fromUnknown({ JWT_SECRET: "a test secret that is long enough for HS256", GENERATOR_CANCEL_TIMEOUT: "1 second" })
    )
  )
)

const password = "correct horse battery staple"
const datasetId = "01900000-0000-7000-8000-0000000000d1" as DatasetId
const generatorId = "01900000-0000-7000-8000-0000000000a1" as GeneratorId
const outputDatasetId = "01900000-0000-7000-8000-0000000000d2" as DatasetId

/** Events a client's requests or the workers would have appended, seen by the read models before it returns. */
const recorded = (owner: UserId, aggregateId: string, event: DomainEvent) =>
  Effect.flatMap(RequestEvents, (requests) =>
    requests.commit([event], { aggregateId, actor: userActor(owner), notVisibleDetail: "not visible" }))

const typesIn = (aggregateId: string) =>
  Effect.gen(function* () {
    const log = yield* EventLog
    const topics = ["synth.user", "synth.dataset", "synth.generator"]
    const events = yield* Effect.forEach(topics, (topic) =>
      Stream.runCollect(log.read({ topic, partition: 0, fromOffset: 0, follow: false })))
    return events.flat().filter((event) => event.key === aggregateId).map((event) => event.envelope.type)
  })

describe("ForgetService", () => {
  it.live("deletes nothing without the password or while a generation runs, then everything, the account last", () =>
    Effect.gen(function* () {
      const auth = yield* AuthService
      const forgetting = yield* ForgetService
      const owned = yield* OwnedResources
      const keys = yield* UserKeys
      const blobs = yield* BlobStore
      const email = "ada@example.com"
      const owner = (yield* auth.register({ email, password })).id

      yield* recorded(owner, datasetId, {
        type: "dataset.uploaded",
        version: 1,
        payload: { datasetId, ownerId: owner, filename: "a.csv", blobKey: `datasets/${datasetId}/original`, fileSize: 10, sha256: "s", declaredContentType: null }
      })
      yield* blobs.put(BlobKey.make("datasets", datasetId, "original"), Stream.make(new Uint8Array([1, 2, 3])))
      yield* recorded(owner, generatorId, {
        type: "generator.requested",
        version: 1,
        payload: {
          generatorId,
          ownerId: owner,
          datasetId,
          generatorType: "gaussian_copula",
          parameters: { numRows: 10, epochs: null, batchSize: null, targetEpsilon: null },
          seed: 1,
          outputDatasetId,
          outputFilename: "a-synthetic.csv",
          estimatedSeconds: 1
        }
      })

      const refused = yield* Effect.result(forgetting.forget(owner, `${password} not`))
      expect(Result.isFailure(refused) && refused.failure._tag).toBe("Forbidden")
      expect(yield* typesIn(generatorId)).toEqual(["generator.requested"])

      const stillRunning = yield* Effect.result(forgetting.forget(owner, password))
      expect(Result.isFailure(stillRunning) && stillRunning.failure._tag).toBe("NotCompleted")
      expect(yield* typesIn(generatorId)).toEqual(["generator.requested", "generator.cancel-requested"])
      expect((yield* owned.of(owner)).datasets).toEqual([datasetId])
      expect(Option.isSome(yield* auth.findProfile(owner))).toBe(true)

      yield* recorded(owner, generatorId, { type: "generator.cancelled", version: 1, payload: { generatorId, attempt: null } })
      yield* forgetting.forget(owner, password)

      expect(yield* owned.of(owner)).toStrictEqual({ datasets: [], generators: [], runningSamples: [], evaluations: [] })
      expect(yield* typesIn(generatorId)).toEqual(["generator.requested", "generator.cancel-requested", "generator.cancelled", "generator.deleted"])
      expect(yield* typesIn(datasetId)).toEqual(["dataset.uploaded", "dataset.deleted"])
      expect(yield* typesIn(owner)).toEqual(["user.registered", "user.forgotten"])
      expect(yield* Effect.result(blobs.stat(BlobKey.make("datasets", datasetId, "original")))).toMatchObject({ _tag: "Failure" })
      expect(yield* keys.find(owner)).toStrictEqual(Option.none())
      expect(yield* auth.findProfile(owner)).toStrictEqual(Option.none())

      const again = yield* Effect.result(forgetting.forget(owner, password))
      expect(Result.isFailure(again) && again.failure._tag).toBe("InvalidToken")
      const reborn = yield* auth.register({ email, password })
      expect(reborn.id).not.toBe(owner)
      expect(reborn.email).toBe(email)
    }).pipe(Effect.provide(TestLayer)), 120_000)
})
