// POST /generators/{id}/cancel through GeneratorService over the real read models (PGlite), an in-memory log and
// the running projector, with a stand-in for the generation service: the rule (the decider's) and the wait for the
// outcome, which wakes on the projector's signal instead of polling.
import { describe, expect, it } from "@effect/vitest"
import { layerMemory as BlobStoreMemory } from "@synth/blobstore"
import { type DatasetId, type DomainEvent, type GeneratorId, serviceActor, Topics, userActor, type UserId } from "@synth/contracts"
import { EventLog, EventWriter, Ids, layerMemory as EventLogMemory } from "@synth/eventlog"
import { generatorEvents } from "@synth/jobs/testing"
import { layerMigrations, ProjectorRuntime } from "@synth/sql"
import { layerEmbeddedTest } from "@synth/sql/testing"
import { Clock, ConfigProvider, Effect, Layer, Stream } from "effect"
import { RequestEvents } from "../events/RequestEvents.ts"
import { gatewayMigrations, gatewayProjections } from "../readModels.ts"
import { UserKeys } from "../users/UserKeys.ts"
import { GeneratorService } from "./GeneratorService.ts"

const TestLayer = Layer.mergeAll(GeneratorService.layer, ProjectorRuntime.layerRunning).pipe(
  Layer.provideMerge(Layer.mergeAll(RequestEvents.layer, EventWriter.layer)),
  Layer.provideMerge(
    ProjectorRuntime.layer(gatewayProjections).pipe(
      Layer.provide(layerMigrations([gatewayMigrations])),
      Layer.provide(UserKeys.layer)
    )
  ),
  Layer.provideMerge(Layer.mergeAll(layerEmbeddedTest, EventLogMemory(), BlobStoreMemory, Ids.layer)),
  Layer.provide(
    ConfigProvider.layer(
      ConfigProvider.fromUnknown({ JWT_SECRET: "a test secret that is long enough for HS256", GENERATOR_CANCEL_TIMEOUT: "3 seconds" })
    )
  )
)

const owner = "01900000-0000-7000-8000-000000000001" as UserId
const generatorId = "01900000-0000-7000-8000-0000000000a1" as GeneratorId

const { cancelled, requested } = generatorEvents({
  generatorId,
  ownerId: owner,
  datasetId: "01900000-0000-7000-8000-0000000000d1" as DatasetId,
  outputDatasetId: "01900000-0000-7000-8000-0000000000d2" as DatasetId
})

const recorded = (event: DomainEvent) =>
  Effect.flatMap(RequestEvents, (requests) =>
    requests.commit([event], { aggregateId: generatorId, actor: userActor(owner), notVisibleDetail: "not visible" }))

/** The generation service, as far as a queued job's cancellation goes: it answers a cancel request with `cancelled`. */
const generationStandIn = Effect.gen(function* () {
  const log = yield* EventLog
  const writer = yield* EventWriter
  yield* log.read({ topic: Topics.generator.name, partition: 0, fromOffset: 0, follow: true }).pipe(
    Stream.filter((stored) => stored.envelope.type === "generator.cancel-requested"),
    Stream.runForEach((stored) =>
      writer.append([cancelled(null)], {
        aggregateId: generatorId,
        actor: serviceActor("generation"),
        correlationId: stored.envelope.correlationId,
        causationId: stored.envelope.eventId
      })),
    Effect.orDie,
    Effect.forkScoped
  )
})

// Each test opens a PGlite read model of its own: seconds on a loaded machine, hence the long timeouts.
describe("GeneratorService.cancel", () => {
  it.live("answers with the cancelled record (200, http/handlers/cancelAnswer) as soon as the read model shows the outcome", () =>
    Effect.scoped(Effect.gen(function* () {
      const generators = yield* GeneratorService
      yield* recorded(requested)
      yield* generationStandIn
      const before = yield* Clock.currentTimeMillis
      const record = yield* generators.cancel(generatorId, owner)
      expect(record.status).toBe("cancelled")
      expect((yield* Clock.currentTimeMillis) - before).toBeLessThan(2_500)
      expect((yield* generators.get(generatorId, owner)).status).toBe("cancelled")
    })).pipe(Effect.provide(TestLayer)), 120_000)

  it.live("answers with the running record (202) when no outcome came within GENERATOR_CANCEL_TIMEOUT", () =>
    Effect.gen(function* () {
      const generators = yield* GeneratorService
      yield* recorded(requested)
      const before = yield* Clock.currentTimeMillis
      const record = yield* generators.cancel(generatorId, owner)
      expect(record.status).toBe("running")
      expect((yield* Clock.currentTimeMillis) - before).toBeGreaterThanOrEqual(3_000)
      expect((yield* generators.get(generatorId, owner)).status).toBe("running")
    }).pipe(Effect.provide(TestLayer)), 120_000)

  it.live("refuses a job that has ended (409), and an id that is not one of the owner's (404)", () =>
    Effect.gen(function* () {
      const generators = yield* GeneratorService
      yield* recorded(requested)
      yield* recorded(cancelled(null))
      const refusal = yield* Effect.flip(generators.cancel(generatorId, owner))
      expect(refusal).toMatchObject({ _tag: "AlreadyFinished", detail: `Generator ${generatorId} is cancelled: there is nothing to cancel.` })
      const stranger = "01900000-0000-7000-8000-000000000009" as UserId
      expect(yield* Effect.flip(generators.cancel(generatorId, stranger))).toMatchObject({ _tag: "NotFound" })
    }).pipe(Effect.provide(TestLayer)), 120_000)
})
