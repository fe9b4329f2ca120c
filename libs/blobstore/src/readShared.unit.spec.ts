import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { BlobKey } from "./BlobKey.ts"
import { BlobNotFound, BlobStore } from "./BlobStore.ts"
import { makeMemory } from "./memory.ts"
import { readShared } from "./readShared.ts"

const key = BlobKey.make("datasets", "d1", "table")
/** Several of the memory store's 64 KiB read chunks and a partial one. */
const bytes = Uint8Array.from({ length: 200_000 }, (_, index) => (index * 31) % 251)

/** The memory store with `stat` answering `size`: a blob replaced between the stat and the read. */
const statSaying = (size: number) =>
  Effect.map(makeMemory, (store): BlobStore["Service"] => ({ ...store, stat: (of) => Effect.succeed({ key: of, size }) }))

describe("readShared", () => {
  it.effect("reads the whole blob into one SharedArrayBuffer", () =>
    Effect.gen(function* () {
      const store = yield* makeMemory
      yield* store.put(key, Stream.make(bytes))
      const read = yield* readShared(store, key)
      expect(read.buffer).toBeInstanceOf(SharedArrayBuffer)
      expect(read).toEqual(bytes)
    }))

  it.effect("reads a blob whole when it grew or shrank since its size was read", () =>
    Effect.gen(function* () {
      for (const statSize of [1000, 65_536, 199_999, 200_001, 500_000, 0]) {
        const store = yield* statSaying(statSize)
        yield* store.put(key, Stream.make(bytes))
        const read = yield* readShared(store, key)
        expect(read.buffer, `stat said ${statSize}`).toBeInstanceOf(SharedArrayBuffer)
        expect(read, `stat said ${statSize}`).toEqual(bytes)
      }
    }))

  it.effect("reads an empty blob, and fails with BlobNotFound for a missing one", () =>
    Effect.gen(function* () {
      const store = yield* makeMemory
      yield* store.put(key, Stream.empty)
      expect(yield* readShared(store, key)).toEqual(new Uint8Array(0))
      const missing = BlobKey.make("datasets", "d2", "table")
      expect(yield* Effect.flip(readShared(store, missing))).toEqual(new BlobNotFound({ key: missing }))
    }))
})
