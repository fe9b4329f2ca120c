import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { Tokens, TokensLive } from "./Tokens.ts"
import { tokenSettingsFromConfig } from "./TokenSettings.ts"

const withConfig = (entries: Record<string, string>) =>
  Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: entries }))

const secret = { JWT_SECRET: "a test secret that is long enough for HS256" }

describe("token settings from config", () => {
  it.effect("defaults to synth / synth-api, 15 minutes and 30 days", () =>
    Effect.gen(function*() {
      const settings = yield* tokenSettingsFromConfig.pipe(withConfig(secret))
      expect(settings).toMatchObject({
        issuer: "synth",
        audience: "synth-api",
        accessTokenTtlSeconds: 900,
        refreshTokenTtlSeconds: 2_592_000
      })
    }))

  it.effect("reads lifetimes as seconds or as durations, and the issuer and audience", () =>
    Effect.gen(function*() {
      const settings = yield* tokenSettingsFromConfig.pipe(withConfig({
        ...secret,
        ACCESS_TOKEN_TTL: "600",
        REFRESH_TOKEN_TTL: "7 days",
        JWT_ISSUER: "synth-eu",
        JWT_AUDIENCE: "synth-eu-api"
      }))
      expect(settings).toMatchObject({
        issuer: "synth-eu",
        audience: "synth-eu-api",
        accessTokenTtlSeconds: 600,
        refreshTokenTtlSeconds: 7 * 24 * 3600
      })
    }))

  it.effect("refuses a lifetime under one second or one it cannot read", () =>
    Effect.gen(function*() {
      for (const value of ["0", "-5", "soon", "10 millis"]) {
        const error = yield* Effect.flip(tokenSettingsFromConfig.pipe(withConfig({ ...secret, ACCESS_TOKEN_TTL: value })))
        expect(String(error)).toMatch(/ACCESS_TOKEN_TTL/)
      }
    }))
})

describe("TokensLive", () => {
  it.effect("keeps accepting tokens across a restart with the generated secret", () =>
    Effect.gen(function*() {
      const dataDir = yield* Effect.acquireRelease(
        Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "auth-tokens-"))),
        (directory) => Effect.promise(() => fs.rm(directory, { recursive: true, force: true }))
      )
      const start = Effect.provide(Tokens, TokensLive).pipe(withConfig({ DATA_DIR: dataDir }))
      const before = yield* start
      const { token } = yield* before.issueAccess("user-1")
      const after = yield* start
      expect((yield* after.verifyAccess(token)).subject).toBe("user-1")
    }))
})
