import { expect, layer } from "@effect/vitest"
import { Data, Effect, type Layer, Result, Stream } from "effect"
import { randomUUID } from "node:crypto"
import { BlobKey } from "../BlobKey.ts"
import { BlobNotFound, BlobStore } from "../BlobStore.ts"
import { readAll } from "../readAll.ts"
import { chunked, sampleBytes, sha256 } from "./fixtures.ts"

class UploadAborted extends Data.TaggedError("UploadAborted") {}

/** Each test writes under its own prefix, so a suite can share one store (a bucket, say) between tests. */
const keyUnderFreshPrefix = (...segments: ReadonlyArray<string>) => BlobKey.make("contract", randomUUID(), ...segments)

/**
 * The behaviour every `BlobStore` adapter must show. `makeLayer` builds a store for the suite; the tests keep to
 * keys under fresh prefixes, so an adapter may share it with other suites. The live clock is kept, so adapters
 * with timeouts or retries (S3) behave as in production.
 */
export const blobStoreContract = (name: string, makeLayer: () => Layer.Layer<BlobStore, unknown>) =>
  layer(makeLayer(), { excludeTestServices: true, timeout: "60 seconds" })(`BlobStore contract: ${name}`, (it) => {
    it.effect("put then get returns the same bytes, with their size and SHA-256", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const key = keyUnderFreshPrefix("original")
        const bytes = sampleBytes(3 * 1024 * 1024 + 17)

        const written = yield* store.put(key, chunked(bytes))
        expect(written).toEqual({ key, size: bytes.length, sha256: sha256(bytes) })
        const read = yield* readAll(store.get(key))
        expect(read.length).toBe(bytes.length)
        expect(sha256(read)).toBe(sha256(bytes))
        expect(yield* store.stat(key)).toEqual({ key, size: bytes.length })
      }))

    it.effect("stores an empty blob", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const key = keyUnderFreshPrefix("empty")
        expect(yield* store.put(key, Stream.empty)).toEqual({ key, size: 0, sha256: sha256(new Uint8Array()) })
        expect((yield* readAll(store.get(key))).length).toBe(0)
        expect(yield* store.stat(key)).toEqual({ key, size: 0 })
      }))

    it.effect("a second put replaces the first", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const key = keyUnderFreshPrefix("table.arrow")
        yield* store.put(key, chunked(sampleBytes(200_000, 1)))
        const replacement = sampleBytes(1000, 2)
        yield* store.put(key, chunked(replacement))
        expect(sha256(yield* readAll(store.get(key)))).toBe(sha256(replacement))
        expect(yield* store.stat(key)).toEqual({ key, size: 1000 })
      }))

    it.effect("get and stat of an absent blob fail with BlobNotFound", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const key = keyUnderFreshPrefix("missing")
        expect(yield* Effect.flip(readAll(store.get(key)))).toEqual(new BlobNotFound({ key }))
        expect(yield* Effect.flip(store.stat(key))).toEqual(new BlobNotFound({ key }))
      }))

    it.effect("a prefix is no blob", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const id = randomUUID()
        const prefix = BlobKey.make("contract", id)
        yield* store.put(BlobKey.make("contract", id, "original"), chunked(sampleBytes(10)))
        expect(yield* Effect.flip(readAll(store.get(prefix)))).toEqual(new BlobNotFound({ key: prefix }))
        expect(yield* Effect.flip(store.stat(prefix))).toEqual(new BlobNotFound({ key: prefix }))
      }))

    it.effect("remove deletes a blob and succeeds when it is already gone", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const key = keyUnderFreshPrefix("original")
        yield* store.put(key, chunked(sampleBytes(10)))
        yield* store.remove(key)
        yield* store.remove(key)
        yield* store.remove(keyUnderFreshPrefix("never-written"))
        expect(Result.isFailure(yield* Effect.result(store.stat(key)))).toBe(true)
      }))

    it.effect("removePrefix removes every blob under the prefix and nothing else", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const id = randomUUID()
        const doomed = BlobKey.make("contract", id, "a")
        const doomedDeep = BlobKey.make("contract", id, "a", "b", "c")
        const doomedOther = BlobKey.make("contract", id, "b")
        // "a" is a prefix of "ab" as a string, not as a segment.
        const sibling = BlobKey.make("contract", id, "ab")
        const cousin = BlobKey.make("contract", `${id}x`, "a")
        for (const key of [doomedDeep, doomedOther, sibling, cousin]) {
          yield* store.put(key, chunked(sampleBytes(100)))
        }
        yield* store.removePrefix(doomed)
        yield* store.removePrefix(doomed)
        expect(Result.isFailure(yield* Effect.result(store.stat(doomedDeep)))).toBe(true)
        expect(Result.isFailure(yield* Effect.result(store.stat(doomed)))).toBe(true)
        expect(yield* store.stat(doomedOther)).toEqual({ key: doomedOther, size: 100 })
        expect(yield* store.stat(sibling)).toEqual({ key: sibling, size: 100 })

        yield* store.removePrefix(BlobKey.make("contract", id))
        expect(Result.isFailure(yield* Effect.result(store.stat(doomedOther)))).toBe(true)
        expect(Result.isFailure(yield* Effect.result(store.stat(sibling)))).toBe(true)
        expect(yield* store.stat(cousin)).toEqual({ key: cousin, size: 100 })
        yield* store.removePrefix(cousin)
      }))

    it.effect("a failing input stream stores nothing and keeps the previous value", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const id = randomUUID()
        const failing = Stream.concat(chunked(sampleBytes(300_000, 3)), Stream.fail(new UploadAborted()))

        const fresh = BlobKey.make("contract", id, "fresh")
        expect(yield* Effect.flip(store.put(fresh, failing))).toEqual(new UploadAborted())
        expect(yield* Effect.flip(readAll(store.get(fresh)))).toEqual(new BlobNotFound({ key: fresh }))

        const existing = BlobKey.make("contract", id, "existing")
        const previous = sampleBytes(150_000, 4)
        yield* store.put(existing, chunked(previous))
        expect(yield* Effect.flip(store.put(existing, failing))).toEqual(new UploadAborted())
        expect(sha256(yield* readAll(store.get(existing)))).toBe(sha256(previous))
      }))

    it.effect("concurrent puts to one key leave one complete value", () =>
      Effect.gen(function*() {
        const store = yield* BlobStore
        const key = keyUnderFreshPrefix("original")
        const candidates = Array.from({ length: 8 }, (_, index) => sampleBytes(250_000 + index * 1000, index + 10))

        const results = yield* Effect.forEach(candidates, (bytes) => store.put(key, chunked(bytes)), {
          concurrency: "unbounded"
        })
        const stored = yield* readAll(store.get(key))
        const winner = results.find((result) => result.sha256 === sha256(stored))
        expect(winner).toBeDefined()
        expect(stored.length).toBe(winner?.size)
        expect(yield* store.stat(key)).toEqual({ key, size: winner?.size })
      }))
  })
