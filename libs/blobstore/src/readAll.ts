import { Effect, Stream } from "effect"

/** Joins chunks into one array of their bytes, in order. */
export const concatBytes = (chunks: ReadonlyArray<Uint8Array>): Uint8Array => {
  const bytes = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.length, 0))
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.length
  }
  return bytes
}

/** The whole of a byte stream (a blob as `BlobStore.get` streams it) in memory, for bodies known to be small. */
export const readAll = <E, R>(stream: Stream.Stream<Uint8Array, E, R>): Effect.Effect<Uint8Array, E, R> =>
  Effect.map(Stream.runCollect(stream), concatBytes)
