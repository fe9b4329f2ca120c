import { type Array as Arr, Cause, type Context, Effect, Exit, Fiber, Option, Pull, Scope, Stream } from "effect"
import { TabularError } from "./TabularError.ts"

/**
 * Between Effect streams and the plain async iteration of the parsing and conversion loops. The caller's own error
 * travels through those loops wrapped, so that on the way back it is told apart from a TabularError and from a bug
 * (which becomes a defect).
 */
class UpstreamFailure<E> {
  readonly error: E
  constructor(error: E) {
    this.error = error
  }
}

/**
 * The stream's elements as an async iterable; returning early (or `signal` aborting) interrupts the read in flight
 * and closes the stream's scope, so that what it holds (a file handle) is released.
 *
 * Hand-written rather than `Stream.toAsyncIterableWith` so that the ingest's AbortSignal interrupts a read in
 * flight, not only the loop between batches; each `next` that needs a batch runs one pull of `Stream.toPull` and
 * hands the batch's elements out without Effect. It is not faster: draining 100 MB in 64 KiB chunks costs ~130–170 ms
 * CPU through either, and as much runs in `Stream.runForEach` alone over `Stream.fromAsyncIterable(createReadStream)`
 * (against ~55–85 ms for the plain ReadStream): the per-chunk cost is in the caller's source stream (Node 20).
 */
export const toAsyncIterable = <E>(
  stream: Stream.Stream<Uint8Array, E>,
  runtime: Context.Context<never>,
  signal?: AbortSignal
): AsyncIterable<Uint8Array> => ({
  [Symbol.asyncIterator]: () => new PulledStream(stream, runtime, signal)
})

const finished: IteratorReturnResult<undefined> = { done: true, value: undefined }

type Batch = Arr.NonEmptyReadonlyArray<Uint8Array>

class PulledStream<E> implements AsyncIterator<Uint8Array, undefined> {
  readonly #scope = Effect.runSync(Scope.make())
  readonly #runtime: Context.Context<never>
  readonly #stream: Stream.Stream<Uint8Array, E>
  readonly #signal: AbortSignal | undefined
  #pull: Pull.Pull<Batch, E> | undefined
  #chunk: ReadonlyArray<Uint8Array> = []
  #index = 0
  #pulling: Fiber.Fiber<Batch, E | Cause.Done> | undefined
  #closed = false

  constructor(stream: Stream.Stream<Uint8Array, E>, runtime: Context.Context<never>, signal: AbortSignal | undefined) {
    this.#stream = stream
    this.#runtime = runtime
    this.#signal = signal
    signal?.addEventListener("abort", this.#abort, { once: true })
  }

  next(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (this.#index < this.#chunk.length) {
      return Promise.resolve({ done: false, value: this.#chunk[this.#index++]! })
    }
    if (this.#closed) return Promise.resolve(finished)
    return new Promise((resolve, reject) => {
      const fiber = Effect.runForkWith(this.#runtime)(this.#pullOnce())
      this.#pulling = fiber
      fiber.addObserver((exit) => {
        this.#pulling = undefined
        if (Exit.isSuccess(exit)) {
          this.#chunk = exit.value
          this.#index = 0
          resolve(this.next())
          return
        }
        this.#stop()
        if (Pull.isDoneCause(exit.cause)) return resolve(finished)
        const failure = Cause.findErrorOption(exit.cause)
        if (Option.isNone(failure)) reject(Cause.squash(exit.cause))
        else reject(new UpstreamFailure(failure.value))
      })
    })
  }

  return(): Promise<IteratorResult<Uint8Array, undefined>> {
    return this.#close(Exit.void).then(() => finished)
  }

  /** One batch; the scope is closed (with the stream's end or failure) before the pull's result is handed on. */
  #pullOnce(): Effect.Effect<Batch, E | Cause.Done> {
    const pull = this.#pull ?? Effect.flatMap(Scope.provide(Stream.toPull(this.#stream), this.#scope), (pull) => {
      this.#pull = pull
      return pull
    })
    return Effect.onExit(pull, (exit) => Exit.isSuccess(exit) ? Effect.void : this.#closeEffect(endOf(exit)))
  }

  #closeEffect(exit: Exit.Exit<unknown, unknown>): Effect.Effect<void> {
    return Effect.suspend(() => {
      if (this.#closed) return Effect.void
      this.#stop()
      return Scope.close(this.#scope, exit)
    })
  }

  #close(exit: Exit.Exit<unknown, unknown>): Promise<void> {
    const pulling = this.#pulling
    return Effect.runPromiseWith(this.#runtime)(
      Effect.andThen(pulling === undefined ? Effect.void : Fiber.interrupt(pulling), this.#closeEffect(exit))
    )
  }

  #stop(): void {
    this.#closed = true
    this.#chunk = []
    this.#signal?.removeEventListener("abort", this.#abort)
  }

  readonly #abort = (): void => {
    void this.#close(Exit.interrupt())
  }
}

/** The stream's end (a `Done` failure) closes the scope as a success; anything else as it came. */
const endOf = (exit: Exit.Exit<unknown, unknown>): Exit.Exit<unknown, unknown> =>
  Exit.isFailure(exit) && Pull.isDoneCause(exit.cause) ? Exit.void : exit

/** A failure thrown out of the loops, back in the error channel. */
export const rethrown = <E>(thrown: unknown): Effect.Effect<never, TabularError | E> => {
  if (thrown instanceof TabularError) return Effect.fail(thrown)
  if (thrown instanceof UpstreamFailure) return Effect.fail(thrown.error as E)
  return Effect.die(thrown)
}

/** Runs an async step; the signal tells the loop to stop when the effect is interrupted. */
export const fromAsync = <A, E>(run: (signal: AbortSignal) => Promise<A>): Effect.Effect<A, TabularError | E> =>
  Effect.tryPromise({ try: run, catch: (thrown) => thrown }).pipe(Effect.catch((thrown) => rethrown<E>(thrown)))

/** An async generator of bytes as a stream; stopping the stream closes the generator (and what it reads). */
export const fromAsyncBytes = <E>(bytes: () => AsyncIterable<Uint8Array>): Stream.Stream<Uint8Array, TabularError | E> =>
  Stream.suspend(() => Stream.fromAsyncIterable(bytes(), (thrown) => thrown)).pipe(
    Stream.catch((thrown) => Stream.fromEffect(rethrown<E>(thrown)))
  )
