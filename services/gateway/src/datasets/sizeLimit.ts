import { Effect, Stream } from "effect"

/**
 * Counts the bytes flowing through and fails with `onExceeded()` as soon as they pass `maxBytes`, before the chunk
 * that passes it goes on, so a consumer (the blob store's put) never sees more than the limit and stores nothing.
 * `counter` may be shared by several streams to enforce one budget across them.
 */
export const limitBytes =
  <E2>(maxBytes: number, onExceeded: () => E2, counter: { bytes: number } = { bytes: 0 }) =>
  <E, R>(self: Stream.Stream<Uint8Array, E, R>): Stream.Stream<Uint8Array, E | E2, R> =>
    // Per chunk of the stream, not per byte array: one check for the many arrays a read from the request yields.
    Stream.mapArrayEffect(self, (chunk) => {
      for (const bytes of chunk) counter.bytes += bytes.byteLength
      return counter.bytes > maxBytes ? Effect.fail(onExceeded()) : Effect.succeed(chunk)
    })
