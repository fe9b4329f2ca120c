import { HttpEffect, HttpServerResponse } from "effect/http"
import { RateLimited } from "@synth/contracts"
import { Clock, Context, Effect, Layer, Schedule } from "effect"

const windowMillis = 60_000

interface Window {
  readonly resetAt: number
  count: number
}

/**
 * Fixed one-minute windows per key (a user or a client address), kept in memory: exact for the embedded runtime,
 * per replica in the distributed one. Every checked response carries the IETF RateLimit-* fields; a refusal is a
 * 429 whose Retry-After tells when the window resets.
 */
export class RateLimiter extends Context.Service<RateLimiter>()("@synth/gateway/RateLimiter", {
  make: Effect.gen(function* () {
    const windows = new Map<string, Window>()

    const sweep = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      Effect.sync(() => {
        for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key)
      })
    )
    yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(windowMillis)))

    const enforce = Effect.fn("RateLimiter.enforce")(function* (key: string, limit: number) {
      const now = yield* Clock.currentTimeMillis
      const current = windows.get(key)
      const window = current !== undefined && current.resetAt > now ? current : { resetAt: now + windowMillis, count: 0 }
      windows.set(key, window)
      window.count += 1
      const resetSeconds = Math.max(1, Math.ceil((window.resetAt - now) / 1000))
      const remaining = Math.max(0, limit - window.count)
      // Outside a request (a test) there is no response to put the headers on, and nothing is registered.
      HttpEffect.appendPreResponseHandlerUnsafe(yield* Effect.context<never>(), (_request, response) =>
        Effect.succeed(
          HttpServerResponse.setHeaders(response, {
            "ratelimit-limit": String(limit),
            "ratelimit-remaining": String(remaining),
            "ratelimit-reset": String(resetSeconds)
          })
        ))
      if (window.count > limit) {
        return yield* new RateLimited({
          detail: `Too many requests: the limit is ${limit} a minute. Retry in ${resetSeconds} s.`,
          retry_after: resetSeconds
        })
      }
    })

    return { enforce } as const
  })
}) {
  static readonly layer = Layer.effect(this, this.make)
}
