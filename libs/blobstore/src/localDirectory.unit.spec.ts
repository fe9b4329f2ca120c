import { describe, expect, it } from "@effect/vitest"
import { Cause, ConfigProvider, Effect, Exit, Fiber, Layer, Stream } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { BlobKey } from "./BlobKey.ts"
import { BlobStore } from "./BlobStore.ts"
import { layerLocal, layerLocalConfig, makeLocal } from "./localDirectory.ts"
import { blobStoreContract } from "./testing/contract.ts"
import { chunked, sampleBytes } from "./testing/fixtures.ts"

const temporaryDirectory = Effect.acquireRelease(
  Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "blobstore-"))),
  (directory) => Effect.promise(() => fs.rm(directory, { recursive: true, force: true }))
)

const listFiles = (directory: string) =>
  Effect.promise(async () => (await fs.readdir(directory, { recursive: true })).sort())

blobStoreContract("local directory", () =>
  Layer.unwrap(Effect.map(temporaryDirectory, (root) => layerLocal({ root }))))

describe("local directory", () => {
  it.effect("touches nothing outside its root, even when handed a forged key", () =>
    Effect.gen(function*() {
      const parent = yield* temporaryDirectory
      const sentinel = path.join(parent, "sentinel")
      yield* Effect.promise(() => fs.writeFile(sentinel, "keep me"))
      const store = yield* makeLocal({ root: path.join(parent, "blobs") })

      const key = BlobKey.make("datasets", "d1", "original")
      yield* store.put(key, chunked(sampleBytes(1000)))
      yield* Stream.runDrain(store.get(key))
      yield* store.stat(key)
      yield* store.remove(key)
      yield* store.removePrefix(BlobKey.make("datasets"))

      for (const forged of ["../sentinel", "..", "a/..", "a/../../sentinel"] as Array<BlobKey>) {
        const attempts = [
          store.put(forged, chunked(sampleBytes(10))),
          Stream.runDrain(store.get(forged)),
          store.stat(forged),
          store.remove(forged),
          store.removePrefix(forged)
        ]
        for (const attempt of attempts) {
          const exit = yield* Effect.exit(attempt)
          expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
        }
      }
      expect(yield* listFiles(parent)).toEqual(["blobs", "sentinel"])
      expect(yield* Effect.promise(() => fs.readFile(sentinel, "utf8"))).toBe("keep me")
    }))

  it.effect("failed and interrupted puts leave no temporary files behind", () =>
    Effect.gen(function*() {
      const root = yield* temporaryDirectory
      const store = yield* makeLocal({ root })
      const key = BlobKey.make("d1", "original")
      yield* store.put(key, chunked(sampleBytes(1000)))

      yield* Effect.exit(store.put(key, Stream.concat(chunked(sampleBytes(200_000)), Stream.fail("aborted"))))
      const stalled = yield* Effect.forkChild(store.put(key, Stream.concat(chunked(sampleBytes(200_000)), Stream.never)))
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
      yield* Fiber.interrupt(stalled)

      expect(yield* listFiles(root)).toEqual(["d1", path.join("d1", "original")])
      expect(yield* store.stat(key)).toEqual({ key, size: 1000 })
    }))

  it.effect("keeps blobs private to the service's user", () =>
    Effect.gen(function*() {
      const root = yield* temporaryDirectory
      const store = yield* makeLocal({ root })
      yield* store.put(BlobKey.make("d1", "original"), chunked(sampleBytes(10)))
      const stats = yield* Effect.promise(() => fs.stat(path.join(root, "d1", "original")))
      expect(stats.mode & 0o777).toBe(0o600)
    }))

  it.effect("layerLocalConfig keeps blobs under DATA_DIR/blobs", () =>
    Effect.gen(function*() {
      const dataDir = yield* temporaryDirectory
      const key = BlobKey.make("d1", "original")
      yield* Effect.flatMap(BlobStore, (store) => store.put(key, chunked(sampleBytes(10)))).pipe(
        Effect.provide(layerLocalConfig),
        Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: { DATA_DIR: dataDir } }))
      )
      expect(yield* listFiles(path.join(dataDir, "blobs"))).toEqual(["d1", path.join("d1", "original")])
    }))
})
