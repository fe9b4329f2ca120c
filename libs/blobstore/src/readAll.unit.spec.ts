import { describe, expect, it } from "@effect/vitest"
import { Data, Effect, Stream } from "effect"
import { concatBytes, readAll } from "./readAll.ts"

class ReadFailed extends Data.TaggedError("ReadFailed")<{}> {}

describe("readAll", () => {
  it.effect("joins the stream's chunks in order, empty chunks included", () =>
    Effect.gen(function* () {
      const bytes = yield* readAll(Stream.make(Uint8Array.of(1, 2), new Uint8Array(0), Uint8Array.of(3), Uint8Array.of(4, 5, 6)))
      expect(bytes).toEqual(Uint8Array.of(1, 2, 3, 4, 5, 6))
    }))

  it.effect("reads an empty stream as no bytes and fails as the stream fails", () =>
    Effect.gen(function* () {
      expect(yield* readAll(Stream.empty)).toEqual(new Uint8Array(0))
      const failing = Stream.concat(Stream.make(Uint8Array.of(1)), Stream.fail(new ReadFailed()))
      expect(yield* Effect.flip(readAll(failing))).toEqual(new ReadFailed())
    }))
})

describe("concatBytes", () => {
  it("answers a fresh array that later writes to the chunks do not change", () => {
    const first = Uint8Array.of(7, 8)
    const joined = concatBytes([first, Uint8Array.of(9)])
    first[0] = 0
    expect(joined).toEqual(Uint8Array.of(7, 8, 9))
  })
})
