import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Redacted } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { BlobKey } from "./BlobKey.ts"
import { BlobStore } from "./BlobStore.ts"
import { layerFromConfig } from "./config.ts"
import { s3Config } from "./s3.ts"
import { chunked, sampleBytes } from "./testing/fixtures.ts"

const withSettings = (settings: Record<string, string>) =>
  Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: settings }))

const credentials = { S3_ACCESS_KEY: "access", S3_SECRET_KEY: "secret" }

describe("S3 configuration", () => {
  it.effect("reads the endpoint, the redacted keys and the defaults", () =>
    Effect.gen(function*() {
      const options = yield* s3Config.pipe(withSettings({ S3_ENDPOINT: "http://127.0.0.1:9000", ...credentials }))
      expect(options.endpoint.href).toBe("http://127.0.0.1:9000/")
      expect(Redacted.value(options.accessKey)).toBe("access")
      expect(String(options.secretKey)).not.toContain("secret")
      expect(options.bucket).toBe("synth")
      expect(options.region).toBe("us-east-1")
    }))

  it.effect("takes the bucket and region when given", () =>
    Effect.gen(function*() {
      const options = yield* s3Config.pipe(withSettings({
        S3_ENDPOINT: "https://s3.example.com",
        S3_BUCKET: "synth-prod",
        S3_REGION: "eu-central-1",
        ...credentials
      }))
      expect([options.endpoint.protocol, options.bucket, options.region]).toEqual(["https:", "synth-prod", "eu-central-1"])
    }))

  it.effect.each([
    { problem: "not a URL", endpoint: "127.0.0.1:9000" },
    { problem: "another scheme", endpoint: "ftp://127.0.0.1:9000" },
    { problem: "a path", endpoint: "http://127.0.0.1:9000/minio" },
    { problem: "credentials in the URL", endpoint: "http://user:pass@127.0.0.1:9000" }
  ])("rejects an S3_ENDPOINT with $problem, naming it", ({ endpoint }) =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(s3Config.pipe(withSettings({ S3_ENDPOINT: endpoint, ...credentials })))
      expect(String(error)).toContain("S3_ENDPOINT")
    }))

  it.effect("rejects a bucket name S3 would refuse", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(s3Config.pipe(withSettings({
        S3_ENDPOINT: "http://127.0.0.1:9000",
        S3_BUCKET: "Synth_Data",
        ...credentials
      })))
      expect(String(error)).toContain("S3_BUCKET")
    }))

  it.effect("requires both keys", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(s3Config.pipe(withSettings({ S3_ENDPOINT: "http://127.0.0.1:9000" })))
      expect(String(error)).toContain("S3_ACCESS_KEY")
    }))

  it.effect("layerFromConfig keeps blobs in DATA_DIR when S3_ENDPOINT is unset or empty", () =>
    Effect.gen(function*() {
      for (const settings of [{}, { S3_ENDPOINT: "" }]) {
        const dataDir = yield* Effect.acquireRelease(
          Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "blobstore-config-"))),
          (directory) => Effect.promise(() => fs.rm(directory, { recursive: true, force: true }))
        )
        const key = BlobKey.make("d1", "original")
        yield* Effect.flatMap(BlobStore, (store) => store.put(key, chunked(sampleBytes(10)))).pipe(
          Effect.provide(layerFromConfig),
          withSettings({ DATA_DIR: dataDir, ...settings })
        )
        expect(yield* Effect.promise(() => fs.readdir(path.join(dataDir, "blobs", "d1")))).toEqual(["original"])
      }
    }))
})
