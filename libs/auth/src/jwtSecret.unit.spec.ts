import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Redacted } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { JwtSecretFileError, jwtSecretFromConfig, loadOrCreateSecretFile } from "./jwtSecret.ts"

const temporaryDirectory = Effect.acquireRelease(
  Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "auth-secret-"))),
  (directory) => Effect.promise(() => fs.rm(directory, { recursive: true, force: true }))
)

const withConfig = (entries: Record<string, string>) =>
  Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: entries }))

describe("JWT secret file", () => {
  it.effect("is created once, readable only by its owner, and reused", () =>
    Effect.gen(function*() {
      const directory = yield* temporaryDirectory
      const file = path.join(directory, "secrets", "jwt-secret")
      const first = yield* loadOrCreateSecretFile(file)
      expect(Buffer.byteLength(Redacted.value(first))).toBeGreaterThanOrEqual(32)
      expect((yield* Effect.promise(() => fs.stat(file))).mode & 0o777).toBe(0o600)
      expect((yield* Effect.promise(() => fs.stat(path.dirname(file)))).mode & 0o777).toBe(0o700)
      const again = yield* loadOrCreateSecretFile(file)
      expect(Redacted.value(again)).toBe(Redacted.value(first))
    }))

  it.effect("gives racing starters the same secret and leaves no temporary files", () =>
    Effect.gen(function*() {
      const directory = yield* temporaryDirectory
      const file = path.join(directory, "secrets", "jwt-secret")
      const secrets = yield* Effect.all(Array.from({ length: 8 }, () => loadOrCreateSecretFile(file)), {
        concurrency: "unbounded"
      })
      expect(new Set(secrets.map(Redacted.value)).size).toBe(1)
      expect(yield* Effect.promise(() => fs.readdir(path.dirname(file)))).toEqual(["jwt-secret"])
    }))

  it.effect("refuses a file that holds too short a secret", () =>
    Effect.gen(function*() {
      const directory = yield* temporaryDirectory
      const file = path.join(directory, "jwt-secret")
      yield* Effect.promise(() => fs.writeFile(file, "short\n", { mode: 0o600 }))
      const error = yield* Effect.flip(loadOrCreateSecretFile(file))
      expect(error).toBeInstanceOf(JwtSecretFileError)
      expect(error.message).toMatch(/fewer than 32 bytes; delete it/)
    }))
})

describe("jwtSecretFromConfig", () => {
  it.effect("uses JWT_SECRET when set and writes no file", () =>
    Effect.gen(function*() {
      const dataDir = yield* temporaryDirectory
      const secret = yield* jwtSecretFromConfig.pipe(
        withConfig({ JWT_SECRET: "x".repeat(32), DATA_DIR: dataDir })
      )
      expect(Redacted.value(secret)).toBe("x".repeat(32))
      expect(yield* Effect.promise(() => fs.readdir(dataDir))).toEqual([])
    }))

  it.effect("fails with a config error that says what to do when JWT_SECRET is too short", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(jwtSecretFromConfig.pipe(withConfig({ JWT_SECRET: "x".repeat(31) })))
      expect(String(error)).toMatch(/JWT_SECRET must be at least 32 bytes long/)
    }))

  it.effect("falls back to DATA_DIR/secrets/jwt-secret", () =>
    Effect.gen(function*() {
      const dataDir = yield* temporaryDirectory
      const secret = yield* jwtSecretFromConfig.pipe(withConfig({ DATA_DIR: dataDir }))
      const stored = yield* Effect.promise(() => fs.readFile(path.join(dataDir, "secrets", "jwt-secret"), "utf8"))
      expect(stored).toBe(Redacted.value(secret))
    }))
})
