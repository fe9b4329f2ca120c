import { Cause, Data, Deferred, Effect, Exit, Fiber, Option, Ref, Stream } from "effect"
import { describe, expect, it } from "vitest"
import { fromAsync, toAsyncIterable } from "./effectBridge.ts"
import { TabularError } from "./TabularError.ts"

class ReadFailed extends Data.TaggedError("ReadFailed")<{ readonly key: string }> {}

const bytes = (value: number) => new Uint8Array([value])

/** Drains the stream through the bridge inside `fromAsync`, as the ingest passes do. */
const drain = <E>(stream: Stream.Stream<Uint8Array, E>) =>
  Effect.flatMap(Effect.context(), (runtime) =>
    fromAsync<Array<number>, E>(async (signal) => {
      const seen: Array<number> = []
      for await (const piece of toAsyncIterable(stream, runtime, signal)) seen.push(...piece)
      return seen
    }))

/** A stream whose resource records its release, as the blob store's file handle would. */
const withResource = <E>(released: Ref.Ref<boolean>, body: Stream.Stream<Uint8Array, E>) =>
  Stream.unwrap(
    Effect.as(Effect.acquireRelease(Effect.void, () => Ref.set(released, true)), body)
  )

describe("toAsyncIterable", () => {
  it("hands on every element of multi-element chunks, in order", async () => {
    const stream = Stream.fromArrays([bytes(1), bytes(2)], [], [bytes(3)])
    expect(await Effect.runPromise(drain(stream))).toEqual([1, 2, 3])
  })

  it("surfaces the caller's error typed, after releasing the upstream", async () => {
    const exit = await Effect.runPromise(Effect.gen(function*() {
      const released = yield* Ref.make(false)
      const stream = withResource(released, Stream.concat(Stream.make(bytes(1)), Stream.fail(new ReadFailed({ key: "k" }))))
      const exit = yield* Effect.exit(drain(stream))
      return { exit, released: yield* Ref.get(released) }
    }))
    expect(exit.released).toBe(true)
    expect(exit.exit).toEqual(Exit.fail(new ReadFailed({ key: "k" })))
  })

  it("turns a defect upstream into a defect, not a typed failure", async () => {
    const boom = new Error("boom")
    const exit = await Effect.runPromiseExit(drain(Stream.concat(Stream.make(bytes(1)), Stream.die(boom))))
    expect(Exit.isFailure(exit) && Option.isNone(Cause.findErrorOption(exit.cause))).toBe(true)
    expect(Exit.isFailure(exit) && Cause.squash(exit.cause)).toBe(boom)
  })

  it("keeps a TabularError thrown by the loop a TabularError", async () => {
    const error = new TabularError({ reason: "unparseable_file", message: "bad" })
    const exit = await Effect.runPromiseExit(
      Effect.flatMap(Effect.context(), (runtime) =>
        fromAsync(async () => {
          for await (const _ of toAsyncIterable(Stream.make(bytes(1)), runtime)) throw error
        }))
    )
    expect(exit).toEqual(Exit.fail(error))
  })

  it("releases the upstream when the loop stops early", async () => {
    const result = await Effect.runPromise(Effect.gen(function*() {
      const released = yield* Ref.make(false)
      const pulled = yield* Ref.make(0)
      const endless = withResource(released, Stream.fromEffectRepeat(Effect.as(Ref.update(pulled, (n) => n + 1), bytes(7))))
      const runtime = yield* Effect.context()
      const first = yield* fromAsync<number, never>(async () => {
        for await (const piece of toAsyncIterable(endless, runtime)) return piece[0]!
        return -1
      })
      return { first, released: yield* Ref.get(released) }
    }))
    expect(result).toEqual({ first: 7, released: true })
  })

  it("stops reading and releases the upstream when the consuming effect is interrupted", async () => {
    const result = await Effect.runPromise(Effect.gen(function*() {
      const released = yield* Ref.make(false)
      const pulled = yield* Ref.make(0)
      const started = yield* Deferred.make<void>()
      const slowEndless = withResource(
        released,
        Stream.fromEffectRepeat(
          Effect.andThen(
            Effect.andThen(Ref.update(pulled, (n) => n + 1), Deferred.succeed(started, undefined)),
            Effect.as(Effect.sleep("1 millis"), bytes(1))
          )
        )
      )
      const fiber = yield* Effect.forkChild(drain(slowEndless))
      yield* Deferred.await(started)
      yield* Fiber.interrupt(fiber)
      yield* Effect.sleep("20 millis")
      const afterInterrupt = yield* Ref.get(pulled)
      yield* Effect.sleep("30 millis")
      return { released: yield* Ref.get(released), stillReading: (yield* Ref.get(pulled)) > afterInterrupt }
    }))
    expect(result).toEqual({ released: true, stillReading: false })
  })
})
