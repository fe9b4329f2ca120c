// Two gateway replicas register one email at once: each has its own lock, both find the email free, both append a
// registration. They share the log and the read models (PGlite), as the distributed runtime's replicas do. The
// first registration in the log is the account; the other replica answers 409 (EmailTaken), never a 201 for an
// account that does not exist, and destroys its key so a replay cannot bring its registration back.
import { describe, expect, it } from "@effect/vitest"
import { PasswordHasher, TokensLive } from "@synth/auth"
import { layerMemory as BlobStoreMemory } from "@synth/blobstore"
import { EventLog, Ids, layerMemory as EventLogMemory } from "@synth/eventlog"
import { layerMigrations, ProjectorRuntime } from "@synth/sql"
import { layerEmbeddedTest } from "@synth/sql/testing"
import { ConfigProvider, Deferred, Effect, Layer, Option, Ref, Result, Stream } from "effect"
import { RequestEvents } from "../events/RequestEvents.ts"
import { gatewayMigrations, gatewayProjections } from "../readModels.ts"
import { AuthService } from "./AuthService.ts"
import { UserKeys } from "./UserKeys.ts"
import { UserRepository } from "./UserRepository.ts"

const TestLayer = ProjectorRuntime.layerRunning.pipe(
  Layer.provideMerge(Layer.mergeAll(UserRepository.layer, RequestEvents.layer, UserKeys.layer)),
  Layer.provideMerge(
    ProjectorRuntime.layer(gatewayProjections).pipe(
      Layer.provide(layerMigrations([gatewayMigrations])),
      Layer.provide(UserKeys.layer)
    )
  ),
  Layer.provideMerge(Layer.mergeAll(TokensLive, PasswordHasher.InsecureFastForTests, Ids.layer)),
  Layer.provideMerge(Layer.mergeAll(layerEmbeddedTest, EventLogMemory(), BlobStoreMemory)),
  Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ JWT_SECRET: "a test secret that is long enough for HS256" })))
)

/** One replica's AuthService over the shared read models, whose first look at the email waits for the other's. */
const replica = (bothLooked: Deferred.Deferred<void>, looks: Ref.Ref<number>) =>
  Effect.gen(function* () {
    const users = yield* UserRepository
    const lookTogether = Effect.flatMap(Ref.updateAndGet(looks, (n) => n + 1), (n) =>
      Effect.andThen(n === 2 ? Deferred.succeed(bothLooked, undefined) : Effect.void, Deferred.await(bothLooked)))
    const racing = UserRepository.of({ ...users, stateForEmail: (email) => Effect.tap(users.stateForEmail(email), () => lookTogether) })
    return yield* Effect.provideService(AuthService.make, UserRepository, racing)
  })

const registeredIds = Effect.gen(function* () {
  const log = yield* EventLog
  const events = yield* Stream.runCollect(log.read({ topic: "synth.user", partition: 0, fromOffset: 0, follow: false }))
  return events.filter((event) => event.envelope.type === "user.registered").map((event) => event.key)
})

describe("a registration raced by another replica", () => {
  it.live("answers 201 to the registration first in the log and 409 to the other, whose key is destroyed", () =>
    Effect.gen(function* () {
      const bothLooked = yield* Deferred.make<void>()
      const looks = yield* Ref.make(0)
      const first = yield* replica(bothLooked, looks)
      const second = yield* replica(bothLooked, looks)
      const credentials = { email: "ada@example.com", password: "correct horse battery staple" }

      const answers = yield* Effect.all([first, second].map((auth) => Effect.result(auth.register(credentials))), {
        concurrency: "unbounded"
      })

      const [winner, loser] = yield* registeredIds
      expect(loser).toBeDefined()
      const created = answers.filter(Result.isSuccess).map((answer) => answer.success)
      const refused = answers.filter(Result.isFailure).map((answer) => answer.failure)
      expect(created.map((user) => user.id)).toEqual([winner])
      expect(refused.map((error) => error._tag)).toEqual(["EmailTaken"])
      const account = yield* (yield* UserRepository).findByEmail(credentials.email)
      expect(Option.map(account, (row) => row.id)).toEqual(Option.some(winner))
      const keys = yield* UserKeys
      expect(Option.isSome(yield* keys.find(winner!))).toBe(true)
      expect(Option.isNone(yield* keys.find(loser!))).toBe(true)
    }).pipe(Effect.provide(TestLayer)), 120_000)
})
