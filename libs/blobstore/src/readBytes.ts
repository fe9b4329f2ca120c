import { Effect, Stream } from "effect"

/** One buffer of the given chunks, in order. */
export const concatBytes = (chunks: ReadonlyArray<Uint8Array>): Uint8Array => {
  const bytes = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0))
  chunks.reduce((offset, chunk) => {
    bytes.set(chunk, offset)
    return offset + chunk.length
  }, 0)
  return bytes
}

/** A whole blob (or any byte stream) in memory: what a job hands to its worker thread. */
export const readBytes = <E, R>(stream: Stream.Stream<Uint8Array, E, R>): Effect.Effect<Uint8Array, E, R> =>
  Effect.map(Stream.runCollect(stream), concatBytes)
