import { describe, expect, it } from "@effect/vitest"
import { RateLimited } from "@synth/contracts"
import { Cause, Effect, Exit, Option } from "effect"
import { TestClock } from "effect/testing"
import { RateLimiter } from "./RateLimiter.ts"

describe("RateLimiter", () => {
  it.effect("allows `limit` requests a window per key, then refuses with the seconds until the reset", () =>
    Effect.gen(function* () {
      const limiter = yield* RateLimiter
      for (let attempt = 0; attempt < 3; attempt++) yield* limiter.enforce("user:a", 3)
      yield* TestClock.adjust("20 seconds")
      const refused = yield* Effect.exit(limiter.enforce("user:a", 3))
      // One failure, a RateLimited (v4 causes carry a stack-trace annotation, so no strict equality with Exit.fail)
      expect(Exit.isFailure(refused) && refused.cause.reasons.map((reason) => reason._tag)).toEqual(["Fail"])
      const error = Exit.isFailure(refused) ? Option.getOrUndefined(Cause.findErrorOption(refused.cause)) : undefined
      expect(error).toBeInstanceOf(RateLimited)
      expect(error?.retry_after).toBe(40)
      yield* limiter.enforce("user:b", 3)
    }).pipe(Effect.provide(RateLimiter.layer)))

  it.effect("starts a new window once the old one has passed", () =>
    Effect.gen(function* () {
      const limiter = yield* RateLimiter
      yield* limiter.enforce("address:1", 1)
      expect(Exit.isFailure(yield* Effect.exit(limiter.enforce("address:1", 1)))).toBe(true)
      yield* TestClock.adjust("61 seconds")
      expect(Exit.isSuccess(yield* Effect.exit(limiter.enforce("address:1", 1)))).toBe(true)
    }).pipe(Effect.provide(RateLimiter.layer)))
})
