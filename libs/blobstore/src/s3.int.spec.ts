import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Data, Effect, Fiber, Layer, Redacted, Schedule, Stream } from "effect"
import * as Minio from "minio"
import { createHash, randomUUID } from "node:crypto"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as path from "node:path"
// The test run's global setup normally starts MinIO; run alone, this file starts its own from the same script.
// eslint-disable-next-line @nx/enforce-module-boundaries -- deploy/local is test tooling, not a library
import type { LocalServer } from "../../../deploy/local/localServer.ts"
// eslint-disable-next-line @nx/enforce-module-boundaries -- deploy/ is tooling, not a project
import { start } from "../../../deploy/local/minio.ts"
import { BlobKey } from "./BlobKey.ts"
import { BlobStore } from "./BlobStore.ts"
import { layerFromConfig } from "./config.ts"
import { defaultPartSize, makeS3, type S3Options, s3Config } from "./s3.ts"
import { blobStoreContract } from "./testing/contract.ts"
import { readAll } from "./readAll.ts"
import { chunked, sampleBytes, sha256 } from "./testing/fixtures.ts"

class UploadAborted extends Data.TaggedError("UploadAborted") {}

const repoRoot = path.resolve(import.meta.dirname, "../../..")

// The int project's global setup provides S3_ENDPOINT (and the other S3_* settings); run alone, the file starts
// its own MinIO.
let server: LocalServer | undefined
let env: Readonly<Record<string, string | undefined>> = process.env

beforeAll(async () => {
  if (process.env.S3_ENDPOINT) return
  server = await start({
    cacheDir: path.join(repoRoot, ".cache", "infra"),
    runDir: await mkdtemp(path.join(tmpdir(), "blobstore-minio-")),
    log: (line) => console.error(line)
  })
  env = server.env
}, 15 * 60_000) // a first run builds MinIO

afterAll(() => server?.stop())

const configProvider = () =>
  ConfigProvider.fromEnv({ env: Object.fromEntries(Object.entries(env).flatMap(([name, value]) => value === undefined ? [] : [[name, value]])) })

const readOptions = Effect.suspend(() => Effect.provideService(s3Config, ConfigProvider.ConfigProvider, configProvider())).pipe(Effect.orDie)

/** A client of its own, to look at the bucket the way the adapter cannot: incomplete uploads, ETags, buckets. */
const inspector = (options: S3Options) =>
  new Minio.Client({
    endPoint: options.endpoint.hostname,
    port: Number(options.endpoint.port),
    useSSL: options.endpoint.protocol === "https:",
    accessKey: Redacted.value(options.accessKey),
    secretKey: Redacted.value(options.secretKey),
    region: options.region
  })

/**
 * The unfinished multipart uploads of one object (MinIO lists them per object: `key` is a whole name). One page of
 * the raw listing: `listIncompleteUploads` also lists each upload's parts and fails when an abort wins that race.
 */
const incompleteUploads = (client: Minio.Client, bucket: string, key: BlobKey) =>
  Effect.promise(async () => {
    const page = await client.listIncompleteUploadsQuery(bucket, key, "", "", "")
    return page.uploads.map((upload) => upload.key)
  })

const listed = (client: Minio.Client, bucket: string, prefix: string) =>
  Effect.promise(async () => {
    const names: Array<string> = []
    for await (const item of client.listObjectsV2(bucket, prefix, true)) if (item.name) names.push(item.name)
    return names
  })

/**
 * `size` bytes made on the fly in 64 KiB chunks, never all in memory; `expected` yields their SHA-256 once the
 * stream has been consumed.
 */
const generated = (size: number) => {
  const chunkBytes = 64 * 1024
  const hash = createHash("sha256")
  const stream = Stream.unfold(0, (offset) => {
    if (offset >= size) return Effect.succeed(undefined)
    const bytes = sampleBytes(Math.min(chunkBytes, size - offset), offset / chunkBytes + 1)
    hash.update(bytes)
    return Effect.succeed([bytes, offset + bytes.length] as const)
  })
  return { stream, expected: () => hash.digest("hex") }
}

const hashOf = <E>(stream: Stream.Stream<Uint8Array, E>) =>
  Stream.runFold(stream, () => createHash("sha256"), (hash, bytes) => hash.update(bytes)).pipe(
    Effect.map((hash) => hash.digest("hex"))
  )

blobStoreContract("S3 (MinIO)", () =>
  Layer.unwrap(Effect.sync(() => layerFromConfig.pipe(Layer.provide(ConfigProvider.layer(configProvider()))))))

describe("S3 blob store on MinIO", () => {
  it.live("puts a blob larger than one part as a multipart upload, streamed both ways", () =>
    Effect.gen(function*() {
      const options = yield* readOptions
      const store = yield* makeS3(options)
      const key = BlobKey.make("s3-test", randomUUID(), "large")
      const size = 70 * 1000 * 1000
      const body = generated(size)

      const written = yield* store.put(key, body.stream)
      expect(written).toEqual({ key, size, sha256: body.expected() })
      expect(yield* store.stat(key)).toEqual({ key, size })
      // A multipart object's ETag ends in the number of its parts.
      const info = yield* Effect.promise(() => inspector(options).statObject(options.bucket, key))
      expect(info.etag).toMatch(new RegExp(`-${Math.ceil(size / defaultPartSize)}$`))
      expect(yield* hashOf(store.get(key))).toBe(written.sha256)
      yield* store.remove(key)
    }), { timeout: 180_000 })

  it.live("a blob of exactly one part goes up in one request", () =>
    Effect.gen(function*() {
      const options = yield* readOptions
      const store = yield* makeS3(options)
      const key = BlobKey.make("s3-test", randomUUID(), "one-part")
      const bytes = sampleBytes(defaultPartSize)
      expect(yield* store.put(key, chunked(bytes))).toEqual({ key, size: bytes.length, sha256: sha256(bytes) })
      const info = yield* Effect.promise(() => inspector(options).statObject(options.bucket, key))
      expect(info.etag).not.toContain("-")
      expect(sha256(yield* readAll(store.get(key)))).toBe(sha256(bytes))
      yield* store.remove(key)
    }), { timeout: 60_000 })

  it.live("a failed or interrupted multipart put leaves the previous object and no upload behind", () =>
    Effect.gen(function*() {
      const options = yield* readOptions
      const store = yield* makeS3(options)
      const client = inspector(options)
      const id = randomUUID()
      const prefix = BlobKey.make("s3-test", id)
      const key = BlobKey.make("s3-test", id, "original")
      const previous = sampleBytes(100_000, 7)
      yield* store.put(key, chunked(previous))

      const failing = Stream.concat(generated(3 * defaultPartSize).stream, Stream.fail(new UploadAborted()))
      expect(yield* Effect.flip(store.put(key, failing))).toEqual(new UploadAborted())
      expect(yield* incompleteUploads(client, options.bucket, key)).toEqual([])

      const stalled = yield* Effect.forkChild(store.put(key, Stream.concat(generated(2 * defaultPartSize).stream, Stream.never)))
      // Wait until a part is stored, so the interruption has an upload to abort.
      yield* incompleteUploads(client, options.bucket, key).pipe(
        Effect.filterOrFail((uploads) => uploads.length > 0),
        Effect.retry({ schedule: Schedule.spaced("100 millis"), times: 300 })
      )
      yield* Fiber.interrupt(stalled)
      expect(yield* incompleteUploads(client, options.bucket, key)).toEqual([])

      expect(sha256(yield* readAll(store.get(key)))).toBe(sha256(previous))
      expect(yield* listed(client, options.bucket, `${prefix}/`)).toEqual([key])
      yield* store.removePrefix(prefix)
    }), { timeout: 120_000 })

  it.live("removePrefix deletes more blobs than one listing page holds", () =>
    Effect.gen(function*() {
      const options = yield* readOptions
      const store = yield* makeS3(options)
      const id = randomUUID()
      const prefix = BlobKey.make("s3-test", id)
      const keys = Array.from({ length: 1005 }, (_, index) => BlobKey.make("s3-test", id, "parts", `p${index}`))
      yield* Effect.forEach(keys, (key) => store.put(key, Stream.make(new Uint8Array([1]))), { concurrency: 16 })
      const kept = BlobKey.make("s3-test", `${id}x`, "kept")
      yield* store.put(kept, Stream.make(new Uint8Array([2])))

      yield* store.removePrefix(BlobKey.make("s3-test", id, "parts"))
      expect(yield* listed(inspector(options), options.bucket, `${prefix}/`)).toEqual([])
      expect(yield* store.stat(kept)).toEqual({ key: kept, size: 1 })
      yield* store.remove(kept)
    }), { timeout: 120_000 })

  it.live("creates its bucket when missing, also when two stores start at once", () =>
    Effect.gen(function*() {
      const options = yield* readOptions
      const client = inspector(options)
      const bucket = `blobstore-test-${randomUUID().slice(0, 8)}`
      expect(yield* Effect.promise(() => client.bucketExists(bucket))).toBe(false)
      yield* Effect.addFinalizer(() =>
        Effect.flatMap(listed(client, bucket, ""), (names) =>
          Effect.promise(async () => {
            await client.removeObjects(bucket, names)
            await client.removeBucket(bucket)
          })))

      const [first, second] = yield* Effect.all([makeS3({ ...options, bucket }), makeS3({ ...options, bucket })], {
        concurrency: "unbounded"
      })
      expect(yield* Effect.promise(() => client.bucketExists(bucket))).toBe(true)
      const key = BlobKey.make("original")
      yield* first.put(key, chunked(sampleBytes(1000)))
      expect(yield* second.stat(key)).toEqual({ key, size: 1000 })
    }), { timeout: 60_000 })

  it.live("the blob store is S3 when S3_ENDPOINT is set", () =>
    Effect.gen(function*() {
      const options = yield* readOptions
      const key = BlobKey.make("s3-test", randomUUID(), "via-config")
      yield* Effect.flatMap(BlobStore, (store) => store.put(key, chunked(sampleBytes(10)))).pipe(
        Effect.provide(layerFromConfig),
        Effect.provideService(ConfigProvider.ConfigProvider, configProvider())
      )
      const info = yield* Effect.promise(() => inspector(options).statObject(options.bucket, key))
      expect(info.size).toBe(10)
      yield* Effect.promise(() => inspector(options).removeObject(options.bucket, key))
    }))
})
