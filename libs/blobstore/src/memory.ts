import { Effect, HashMap, Layer, Option, Ref, Stream } from "effect"
import { createHash } from "node:crypto"
import type { BlobKey } from "./BlobKey.ts"
import { BlobNotFound, BlobStore } from "./BlobStore.ts"
import { readAll } from "./readAll.ts"

/** Reads come back in chunks of this size, so consumers are tested against multi-chunk streams as in production. */
const readChunkBytes = 64 * 1024

/** The blob store in memory, for unit tests of the packages that use it. Passes the same contract suite. */
export const makeMemory = Effect.gen(function*() {
  const blobs = yield* Ref.make(HashMap.empty<BlobKey, Uint8Array>())

  const lookup = (key: BlobKey) =>
    Effect.flatMap(Ref.get(blobs), (map) =>
      Option.match(HashMap.get(map, key), {
        onNone: () => Effect.fail(new BlobNotFound({ key })),
        onSome: Effect.succeed
      }))

  return BlobStore.of({
    // The whole body is collected before the map changes, so a failing stream stores nothing.
    put: (key, body) =>
      Effect.gen(function*() {
        const bytes = yield* readAll(body)
        yield* Ref.update(blobs, HashMap.set(key, bytes))
        return { key, size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") }
      }),
    get: (key) =>
      Stream.unwrap(Effect.map(lookup(key), (bytes) =>
        Stream.range(0, Math.ceil(bytes.length / readChunkBytes) - 1).pipe(
          Stream.map((index) => bytes.slice(index * readChunkBytes, (index + 1) * readChunkBytes))
        ))),
    stat: (key) => Effect.map(lookup(key), (bytes) => ({ key, size: bytes.length })),
    remove: (key) => Ref.update(blobs, HashMap.remove(key)),
    removePrefix: (prefix) =>
      Ref.update(blobs, HashMap.filter((_, key) => key !== prefix && !key.startsWith(`${prefix}/`)))
  })
})

export const layerMemory = Layer.effect(BlobStore, makeMemory)
