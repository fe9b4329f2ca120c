// The decider's state as production builds it (the read models the projection filled, read through
// stateOfReadModel) against the events folded with evolve: after every event of a user's history, each command
// decides the same on both.
import { describe, expect, it } from "@effect/vitest"
import { layerMemory as BlobStoreMemory } from "@synth/blobstore"
import type { UserId } from "@synth/contracts"
import type { StoredEvent } from "@synth/eventlog"
import { migrationSet, runMigrations } from "@synth/sql"
import { layerEmbeddedTest } from "@synth/sql/testing"
import { Effect, Layer, Result } from "effect"
import { decide, evolve, initialState, type UserCommand, type UserEvent, type UserState } from "./decider.ts"
import { userMigrations } from "./migrations.ts"
import { applyUserEvents } from "./projection.ts"
import { UserKeys } from "./UserKeys.ts"
import { UserRepository } from "./UserRepository.ts"

const TestLayer = Layer.mergeAll(UserRepository.layer, UserKeys.layer).pipe(
  Layer.provideMerge(Layer.mergeAll(layerEmbeddedTest, BlobStoreMemory))
)

const email = "ada@example.com"
const ada = "0192f0c0-0000-7000-8000-00000000000a" as UserId
const rival = "0192f0c0-0000-7000-8000-00000000000b" as UserId
const newcomer = "0192f0c0-0000-7000-8000-00000000000c" as UserId
const sealedByNewcomer = (ciphertext: string) => ({ alg: "A256GCM", keyId: newcomer, iv: "AAAAAAAAAAAAAAAA", ciphertext }) as const
const at = { envelope: { occurredAt: "2026-01-01T00:00:00.000Z" } } as unknown as StoredEvent

/** What a decision comes to: the events, or the kind of refusal (a refresh's reason may differ, see stateOfReadModel). */
const outcomeOf = (command: UserCommand, state: UserState) => {
  const decision = decide(command, state)
  return Result.isSuccess(decision) ? decision.success : decision.failure._tag
}

const registrationOf = (userId: UserId) =>
  Effect.gen(function* () {
    const keys = yield* UserKeys
    const key = yield* keys.create(userId)
    return {
      type: "user.registered",
      version: 2,
      payload: { userId, email: keys.seal(key, userId, "email", email), passwordHash: keys.seal(key, userId, "passwordHash", "hash") }
    } satisfies UserEvent
  })

const tokens = ["token-1", "token-2", "token-3", "token-unknown"]

describe("stateOfReadModel", () => {
  it.live("decides every command as evolve's state does, after each event of a user's history", () =>
    Effect.gen(function* () {
      yield* runMigrations([migrationSet("gateway", userMigrations)])
      const users = yield* UserRepository
      const history: ReadonlyArray<UserEvent> = [
        yield* registrationOf(ada),
        { type: "user.login-failed", version: 1, payload: { reason: "wrong_password" } },
        { type: "user.logged-in", version: 1, payload: { userId: ada, refreshTokenId: "token-1", familyId: "family-1" } },
        {
          type: "user.token-refreshed",
          version: 1,
          payload: { userId: ada, previousRefreshTokenId: "token-1", refreshTokenId: "token-2", familyId: "family-1" }
        },
        { type: "user.logged-in", version: 1, payload: { userId: ada, refreshTokenId: "token-3", familyId: "family-2" } },
        { type: "user.refresh-token-reused", version: 1, payload: { userId: ada, refreshTokenId: "token-1", familyId: "family-1" } },
        // Another replica found the email free too; its registration comes second in the log and registers nothing.
        yield* registrationOf(rival),
        { type: "user.forgotten", version: 1, payload: { userId: ada } }
      ]
      const commands: ReadonlyArray<UserCommand> = [
        { _tag: "Register", userId: newcomer, email: sealedByNewcomer("bmV3"), passwordHash: sealedByNewcomer("aGFzaA") },
        { _tag: "LogIn", passwordMatches: false },
        { _tag: "LogIn", passwordMatches: true, refreshTokenId: "token-new", familyId: "family-new" },
        { _tag: "Forget", passwordMatches: false },
        { _tag: "Forget", passwordMatches: true }
      ]

      let folded = initialState
      for (const event of history) {
        yield* applyUserEvents([{ event, meta: at }])
        folded = evolve(folded, event)
        const byEmail = yield* users.stateForEmail(email)
        const byId = yield* users.stateForId(ada)
        for (const command of commands) {
          const read = command._tag === "Forget" ? byId : byEmail
          expect(outcomeOf(command, read), `${command._tag} after ${event.type}`).toEqual(outcomeOf(command, folded))
        }
        for (const presentedTokenId of tokens) {
          const refresh: UserCommand = { _tag: "Refresh", presentedTokenId, newRefreshTokenId: "token-next" }
          const read = yield* users.stateForRefresh(ada, presentedTokenId)
          expect(outcomeOf(refresh, read), `Refresh ${presentedTokenId} after ${event.type}`).toEqual(outcomeOf(refresh, folded))
        }
      }
      expect(folded.status).toBe("forgotten")
    }).pipe(Effect.provide(TestLayer)), 60_000)
})
