import { Effect, type Runtime, Stream } from "effect"
import { TabularError } from "./TabularError.ts"

/**
 * Between Effect streams and the plain async iteration of the parsing and conversion loops. The caller's own error
 * travels through those loops wrapped, so that on the way back it is told apart from a TabularError and from a bug
 * (which becomes a defect).
 */
class UpstreamFailure<E> {
  constructor(readonly error: E) {}
}

export const toAsyncIterable = <E>(
  stream: Stream.Stream<Uint8Array, E>,
  runtime: Runtime.Runtime<never>
): AsyncIterable<Uint8Array> =>
  Stream.toAsyncIterableRuntime(Stream.mapError(stream, (error) => new UpstreamFailure(error)), runtime)

/** A failure thrown out of the loops, back in the error channel. */
export const rethrown = <E>(thrown: unknown): Effect.Effect<never, TabularError | E> => {
  if (thrown instanceof TabularError) return Effect.fail(thrown)
  if (thrown instanceof UpstreamFailure) return Effect.fail(thrown.error as E)
  return Effect.die(thrown)
}

/** Runs an async step; the signal tells the loop to stop when the effect is interrupted. */
export const fromAsync = <A, E>(run: (signal: AbortSignal) => Promise<A>): Effect.Effect<A, TabularError | E> =>
  Effect.tryPromise({ try: run, catch: (thrown) => thrown }).pipe(Effect.catchAll((thrown) => rethrown<E>(thrown)))

/** An async generator of bytes as a stream; stopping the stream closes the generator (and what it reads). */
export const fromAsyncBytes = <E>(bytes: () => AsyncIterable<Uint8Array>): Stream.Stream<Uint8Array, TabularError | E> =>
  Stream.suspend(() => Stream.fromAsyncIterable(bytes(), (thrown) => thrown)).pipe(
    Stream.catchAll((thrown) => Stream.fromEffect(rethrown<E>(thrown)))
  )
