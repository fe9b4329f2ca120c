import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Stream } from "effect"
import { limitBytes } from "./sizeLimit.ts"

const chunks = (...sizes: ReadonlyArray<number>) => Stream.fromIterable(sizes.map((size) => new Uint8Array(size)))

describe("limitBytes", () => {
  it.effect("passes a stream of exactly the limit through unchanged", () =>
    Effect.gen(function* () {
      const out = yield* Stream.runCollect(chunks(4, 4, 2).pipe(limitBytes(10, () => "too large")))
      expect(out.map((chunk) => chunk.length)).toEqual([4, 4, 2])
    }))

  it.effect("fails before the chunk that passes the limit reaches the consumer, and stops pulling", () =>
    Effect.gen(function* () {
      const seen: Array<number> = []
      let pulled = 0
      const source = chunks(4, 4, 4, 4).pipe(Stream.tap(() => Effect.sync(() => void pulled++)))
      const exit = yield* source.pipe(
        limitBytes(10, () => "too large" as const),
        Stream.runForEach((chunk) => Effect.sync(() => void seen.push(chunk.length))),
        Effect.exit
      )
      expect(exit).toStrictEqual(Exit.fail("too large"))
      expect(seen).toEqual([4, 4])
      expect(pulled).toBe(3)
    }))

  it.effect("a shared counter enforces one budget across streams", () =>
    Effect.gen(function* () {
      const budget = { bytes: 0 }
      yield* Stream.runDrain(chunks(6).pipe(limitBytes(10, () => "too large", budget)))
      const exit = yield* Effect.exit(Stream.runDrain(chunks(3, 3).pipe(limitBytes(10, () => "too large", budget))))
      expect(exit).toStrictEqual(Exit.fail("too large"))
    }))
})
