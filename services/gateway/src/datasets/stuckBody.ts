import { Clock, Duration, Effect, Stream } from "effect"

/**
 * Fails `stream` with `onStuck()` when a pull has waited `grace` since the request's body was fully received.
 *
 * Why: a multipart body that ends without its closing boundary leaves the open part's content stream waiting for
 * bytes that can never come (the multipart parser reports the early end to the part list, not to the part being
 * read), so the upload would never be answered. Only the time a pull waits counts, and only once nothing more can
 * arrive: a slow client is the body-idle guard's business (408), a slow consumer (the blob store) never waits here.
 */
export const failWhenStuck = <E2>(isBodyReceived: () => boolean, grace: Duration.Input, onStuck: () => E2) =>
<A, E, R>(stream: Stream.Stream<A, E, R>): Stream.Stream<A, E | E2, R> =>
  Stream.transformPull(stream, (pull) => {
    const graceMs = Duration.toMillis(Duration.fromInputUnsafe(grace))
    const stuck = Effect.gen(function*() {
      let receivedAt: number | undefined
      for (;;) {
        yield* Effect.sleep(Duration.millis(Math.min(250, graceMs)))
        if (!isBodyReceived()) continue
        const now = yield* Clock.currentTimeMillis
        receivedAt ??= now
        if (now - receivedAt >= graceMs) return yield* Effect.fail(onStuck())
      }
    })
    return Effect.succeed(Effect.raceFirst(pull, stuck))
  })
