import { afterEach, describe, expect, it, vi } from "@effect/vitest"
import { Cause, ConfigProvider, Effect, Layer } from "effect"
import { layerLogging } from "./logging.ts"

const capture = () => {
  const lines: Array<string> = []
  // console.log's arguments as it would print them (Effect's pretty logger passes the message as its own argument)
  vi.spyOn(globalThis.console, "log").mockImplementation((...parts: Array<unknown>) => void lines.push(parts.map(String).join(" ")))
  return lines
}

const withSettings = (settings: Record<string, string>) =>
  Layer.provide(layerLogging("test-service"), ConfigProvider.layer(ConfigProvider.fromEnv({ env: settings })))

describe("layerLogging", () => {
  afterEach(() => vi.restoreAllMocks())

  it.effect("LOG_FORMAT=json writes one JSON object a line with level, service, message and annotations", () =>
    Effect.gen(function* () {
      const lines = capture()
      yield* Effect.logInfo("dataset ingested", "rows:", 3).pipe(Effect.annotateLogs({ requestId: "req-12345678" }))
      yield* Effect.logError("failed").pipe(Effect.andThen(Effect.logWarning("careful")))
      expect(lines).toHaveLength(3)
      const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(records[0]).toMatchObject({
        level: "info",
        service: "test-service",
        message: "dataset ingested rows: 3",
        requestId: "req-12345678"
      })
      expect(new Date(String(records[0]?.["timestamp"])).toISOString()).toBe(records[0]?.["timestamp"])
      expect(records.map((record) => record["level"])).toEqual(["info", "error", "warn"])
    }).pipe(Effect.provide(withSettings({ LOG_FORMAT: "json" }))))

  it.effect("a failure's cause goes into `cause`", () =>
    Effect.gen(function* () {
      const lines = capture()
      yield* Effect.logError("request failed", Cause.die(new Error("boom")))
      const record = JSON.parse(lines[0] ?? "") as Record<string, unknown>
      expect(record["message"]).toBe("request failed")
      expect(String(record["cause"])).toContain("boom")
    }).pipe(Effect.provide(withSettings({ LOG_FORMAT: "json" }))))

  it.effect("LOG_LEVEL drops less severe lines", () =>
    Effect.gen(function* () {
      const lines = capture()
      yield* Effect.logInfo("chatty")
      yield* Effect.logWarning("worth reading")
      expect(lines.map((line) => (JSON.parse(line) as { message: string }).message)).toEqual(["worth reading"])
    }).pipe(Effect.provide(withSettings({ LOG_FORMAT: "json", LOG_LEVEL: "warning" }))))

  // live: it.effect's TestConsole would catch the pretty logger's lines (it writes through the Console service)
  it.live("LOG_FORMAT=pretty writes no JSON", () =>
    Effect.gen(function* () {
      const lines = capture()
      yield* Effect.logInfo("hello there")
      expect(lines.join("\n")).toContain("hello there")
      expect(() => JSON.parse(lines[0] ?? "")).toThrow()
    }).pipe(Effect.provide(withSettings({ LOG_FORMAT: "pretty" }))))

  it.effect("an unknown LOG_FORMAT is a configuration error naming the setting", () =>
    Effect.gen(function* () {
      const error = yield* Layer.build(withSettings({ LOG_FORMAT: "xml" })).pipe(Effect.scoped, Effect.flip)
      expect(String(error)).toContain("LOG_FORMAT")
    }))
})
