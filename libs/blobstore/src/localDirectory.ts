import { Cause, Config, Effect, Layer, Stream } from "effect"
import { createHash, randomUUID } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import type { BlobKey } from "./BlobKey.ts"
import { BlobNotFound, BlobStore, BlobStoreError } from "./BlobStore.ts"

/** Uploaded files may hold personal data: only the service's own user may read them. */
const fileMode = 0o600
const directoryMode = 0o700
const readChunkBytes = 256 * 1024

const errorCode = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined

/** "No such blob" in the file system's words: the path, or a directory on it, is missing, or it names a prefix. */
const isAbsent = (error: unknown) => ["ENOENT", "ENOTDIR", "EISDIR"].includes(errorCode(error) ?? "")

const attempt = <A>(reason: string, run: () => Promise<A>) =>
  Effect.tryPromise({ try: run, catch: (cause) => new BlobStoreError({ reason, cause }) })

const ignoreFailure = <A>(run: () => Promise<A>) =>
  Effect.tryPromise(run).pipe(Effect.ignore)

/** `FileHandle.write` may write fewer bytes than asked; loop until the whole chunk is on its way to disk. */
const writeFully = async (handle: fs.FileHandle, bytes: Uint8Array) => {
  for (let offset = 0; offset < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset)
    offset += bytesWritten
  }
}

/** Received but unwritten bytes beyond which the body is read no further until the disk catches up. */
const maxQueuedBytes = 8 * 1024 * 1024

/**
 * Writes behind the reader: chunks queue up while one write is in flight and then go out together as the next one.
 * Awaiting each chunk's write (a thread-pool round trip per ~64 KiB network chunk) left the upload waiting on the
 * disk most of the time; now receiving waits only when `maxQueuedBytes` are queued. A write's failure surfaces on
 * the next `write` or on `flush`.
 */
const makeQueuedWriter = (handle: fs.FileHandle) => {
  let queued: Array<Uint8Array> = []
  let queuedBytes = 0
  let inFlight: Promise<void> | undefined
  let failure: { readonly cause: unknown } | undefined

  const writeNextBatch = () => {
    if (inFlight !== undefined || queued.length === 0 || failure !== undefined) return
    const batch = queued.length === 1 ? queued[0]! : Buffer.concat(queued, queuedBytes)
    queued = []
    queuedBytes = 0
    inFlight = writeFully(handle, batch).then(
      () => {
        inFlight = undefined
        writeNextBatch()
      },
      (cause: unknown) => {
        inFlight = undefined
        failure = { cause }
      }
    )
  }
  const rethrow = () => {
    if (failure !== undefined) throw failure.cause
  }
  /** Resolves once everything queued is written (or a write failed). */
  const settled = async () => {
    while (inFlight !== undefined) await inFlight
  }

  return {
    write: async (chunks: Iterable<Uint8Array>) => {
      rethrow()
      for (const chunk of chunks) {
        queued.push(chunk)
        queuedBytes += chunk.length
      }
      writeNextBatch()
      while (queuedBytes >= maxQueuedBytes && inFlight !== undefined) await inFlight
      rethrow()
    },
    flush: async () => {
      await settled()
      rethrow()
    },
    settled
  }
}

/** A rename is durable only once the directory entry is: fsync the directory too. */
const syncDirectory = async (directory: string) => {
  const handle = await fs.open(directory, "r")
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * The blob store on the local file system (the embedded default). A key maps to the same relative path under
 * `root`. Writes go to a temporary file in the target's directory and are renamed into place, so readers see a
 * whole blob or none. Temporary names start with "." and so never collide with a key (segments start with [a-z0-9]).
 */
export const makeLocal = Effect.fn("BlobStore.makeLocal")(function*(options: { readonly root: string }) {
  const root = path.resolve(options.root)
  yield* attempt(`could not create the blob directory ${root}`, () =>
    fs.mkdir(root, { recursive: true, mode: directoryMode }))

  /** `BlobKey` already rules out escapes; this check holds even if a forged key slips through. */
  const pathOf = (key: BlobKey) =>
    Effect.suspend(() => {
      const target = path.resolve(root, ...key.split("/"))
      const relative = path.relative(root, target)
      const inside = relative !== "" && relative !== ".." && !relative.startsWith(`..${path.sep}`) &&
        !path.isAbsolute(relative)
      return inside
        ? Effect.succeed(target)
        : Effect.die(new Error(`blob key ${JSON.stringify(key)} resolves outside the blob directory`))
    })

  const put = Effect.fn("BlobStore.put")(function*<E>(key: BlobKey, body: Stream.Stream<Uint8Array, E>) {
    const target = yield* pathOf(key)
    const directory = path.dirname(target)
    const temporary = path.join(directory, `.${path.basename(target)}.${randomUUID()}.partial`)
    yield* attempt(`could not create the directory of blob ${key}`, () =>
      fs.mkdir(directory, { recursive: true, mode: directoryMode }))

    const hash = createHash("sha256")
    const writeBody = (handle: fs.FileHandle) => {
      const writer = makeQueuedWriter(handle)
      let size = 0
      return Stream.runForEachArray(body, (chunk) =>
        attempt(`could not write blob ${key}`, () => {
          for (const bytes of chunk) {
            hash.update(bytes)
            size += bytes.length
          }
          return writer.write(chunk)
        })).pipe(
          Effect.andThen(attempt(`could not write blob ${key}`, writer.flush)),
          Effect.andThen(attempt(`could not flush blob ${key}`, () => handle.sync())),
          Effect.map(() => size),
          // The handle is closed only after the write in flight, whatever ended the body.
          Effect.onExit(() => Effect.promise(writer.settled))
        )
    }

    const size = yield* Effect.acquireUseRelease(
      attempt(`could not create a temporary file for blob ${key}`, () => fs.open(temporary, "wx", fileMode)),
      writeBody,
      (handle) => ignoreFailure(() => handle.close())
    ).pipe(
      Effect.tap(() => attempt(`could not move blob ${key} into place`, () => fs.rename(temporary, target))),
      // Covers a failing or interrupted input stream as well as our own errors: no partial file stays behind.
      Effect.onError(() => ignoreFailure(() => fs.rm(temporary, { force: true })))
    )
    yield* attempt(`could not flush the directory of blob ${key}`, () => syncDirectory(directory))
    return { key, size, sha256: hash.digest("hex") }
  })

  const openForReading = (key: BlobKey) =>
    Effect.acquireRelease(
      Effect.flatMap(pathOf(key), (file) =>
        Effect.tryPromise({
          try: () => fs.open(file, "r"),
          catch: (cause) =>
            isAbsent(cause)
              ? new BlobNotFound({ key })
              : new BlobStoreError({ reason: `could not open blob ${key}`, cause })
        })),
      (handle) => ignoreFailure(() => handle.close())
    )

  const readChunk = (key: BlobKey, handle: fs.FileHandle) =>
    Effect.tryPromise({
      try: async () => {
        const buffer = new Uint8Array(readChunkBytes)
        const { bytesRead } = await handle.read(buffer, 0, readChunkBytes, null)
        return buffer.subarray(0, bytesRead)
      },
      // A prefix is a directory: opening it may work, reading it fails with EISDIR, and it is no blob.
      catch: (cause) =>
        isAbsent(cause)
          ? new BlobNotFound({ key })
          : new BlobStoreError({ reason: `could not read blob ${key}`, cause })
    }).pipe(
      // An empty read is the end of the file: `Done` ends the stream that repeats this read.
      Effect.flatMap((chunk) => chunk.length > 0 ? Effect.succeed(chunk) : Cause.done())
    )

  const get = (key: BlobKey) =>
    Stream.unwrap(
      Effect.map(openForReading(key), (handle) => Stream.fromEffectRepeat(readChunk(key, handle)))
    ).pipe(Stream.withSpan("BlobStore.get", { attributes: { key } }))

  const stat = Effect.fn("BlobStore.stat")(function*(key: BlobKey) {
    const file = yield* pathOf(key)
    const stats = yield* Effect.tryPromise({
      try: () => fs.stat(file),
      catch: (cause) =>
        isAbsent(cause)
          ? new BlobNotFound({ key })
          : new BlobStoreError({ reason: `could not stat blob ${key}`, cause })
    })
    if (!stats.isFile()) return yield* new BlobNotFound({ key })
    return { key, size: stats.size }
  })

  const remove = Effect.fn("BlobStore.remove")(function*(key: BlobKey) {
    const file = yield* pathOf(key)
    yield* Effect.tryPromise({
      try: () => fs.unlink(file),
      catch: (cause) => new BlobStoreError({ reason: `could not remove blob ${key}`, cause })
    }).pipe(Effect.catchIf((error) => isAbsent(error.cause), () => Effect.void))
  })

  const removePrefix = Effect.fn("BlobStore.removePrefix")(function*(prefix: BlobKey) {
    const target = yield* pathOf(prefix)
    yield* attempt(`could not remove the blobs under ${prefix}`, () =>
      fs.rm(target, { recursive: true, force: true }))
  })

  return BlobStore.of({ put, get, stat, remove, removePrefix })
})

export const layerLocal = (options: { readonly root: string }) => Layer.effect(BlobStore, makeLocal(options))

/** Blobs under `${DATA_DIR}/blobs`, next to the embedded database. */
export const layerLocalConfig = Layer.unwrap(
  Effect.map(
    Config.String("DATA_DIR").pipe(Config.withDefault("./data")),
    (dataDir) => layerLocal({ root: path.join(dataDir, "blobs") })
  )
)
