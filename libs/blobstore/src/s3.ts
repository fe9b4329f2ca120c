import { Config, Duration, Effect, Exit, Fiber, Layer, Redacted, Schedule, Schema, SchemaIssue, Scope, Stream } from "effect"
import { createHash } from "node:crypto"
import type { Readable } from "node:stream"
import type { BlobKey } from "./BlobKey.ts"
import { BlobNotFound, BlobStore, BlobStoreError } from "./BlobStore.ts"

/**
 * Blobs up to this size go up in one PUT; larger ones in parts of exactly this size (the last may be shorter).
 * 16 MiB keeps a put's memory small (two parts) while allowing objects of up to 10,000 parts (about 160 GiB).
 */
export const defaultPartSize = 16 * 1024 * 1024

/** S3 accepts parts of 5 MiB to 5 GiB (only the last part may be smaller). */
const minimumPartSize = 5 * 1024 * 1024
const maximumPartSize = 5 * 1024 * 1024 * 1024

/** One page of a listing and one batch of a multi-object delete: S3 caps both at 1000. */
const listAndDeleteBatch = 1000

export interface S3Options {
  /** `http://host:port` or `https://host[:port]`, without a path. */
  readonly endpoint: URL
  readonly accessKey: Redacted.Redacted<string>
  readonly secretKey: Redacted.Redacted<string>
  readonly bucket: string
  readonly region: string
  readonly partSize?: number
  /** Bounds each request to the server (a whole part upload, one listing page), not a whole put or get. */
  readonly requestTimeout?: Duration.Input
}

const errorCode = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined

/** S3 says "no such object" as NoSuchKey on a GET and as NotFound on a HEAD (which has no body to say more). */
const isAbsent = (error: unknown) => ["NoSuchKey", "NotFound"].includes(errorCode(error) ?? "")

const bucketNamePattern = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/

const endpointOf = (url: URL) => ({
  endPoint: url.hostname.replace(/^\[(.*)\]$/, "$1"),
  useSSL: url.protocol === "https:",
  port: url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port)
})

/**
 * Cuts a byte stream into parts of exactly `partSize` bytes, copying each byte once. A full part is handed out only
 * once a byte beyond it arrives, so what is left at the end is never empty (unless the whole stream was) and a blob
 * of at most one part never needs a multipart upload.
 */
const makePartCutter = (partSize: number) => {
  let pending: Array<Uint8Array> = []
  let pendingBytes = 0
  return {
    push: (bytes: Uint8Array): Array<Buffer> => {
      const parts: Array<Buffer> = []
      let rest = bytes
      while (pendingBytes + rest.length > partSize) {
        const taken = partSize - pendingBytes
        parts.push(Buffer.concat([...pending, rest.subarray(0, taken)], partSize))
        pending = []
        pendingBytes = 0
        rest = rest.subarray(taken)
      }
      if (rest.length > 0) {
        pending.push(rest)
        pendingBytes += rest.length
      }
      return parts
    },
    rest: (): Buffer => Buffer.concat(pending, pendingBytes)
  }
}

/**
 * The blob store on an S3 API (MinIO in the distributed runtime) through the `minio` client. The bucket is created
 * when missing. A put streams: it hashes as bytes arrive and holds at most two parts in memory; a blob larger than
 * one part goes up as a multipart upload that becomes visible only when completed, and is aborted when the input
 * fails or the put is interrupted, so readers see the previous object or the whole new one.
 *
 * Parts are uploaded with the client's multipart calls rather than `putObject(Readable)`: on a stream of unknown
 * length that call never settles when its input fails (the upload hangs, its parts stay stored), and it resumes any
 * unfinished upload of the same key, so two concurrent puts of one key could feed each other's upload.
 */
export const makeS3 = Effect.fn("BlobStore.makeS3")(function*(options: S3Options) {
  const { bucket, region } = options
  const partSize = options.partSize ?? defaultPartSize
  if (partSize < minimumPartSize || partSize > maximumPartSize) {
    return yield* Effect.die(new Error(`S3 part size ${partSize} is outside ${minimumPartSize}..${maximumPartSize}`))
  }
  const requestTimeout = Duration.fromInputUnsafe(options.requestTimeout ?? "2 minutes")
  const endpoint = endpointOf(options.endpoint)
  // Loaded here, not at the top: a runtime on the local directory never loads the client (about 30 MiB resident).
  const Minio = yield* Effect.promise(() => import("minio"))
  const client = new Minio.Client({
    ...endpoint,
    accessKey: Redacted.value(options.accessKey),
    secretKey: Redacted.value(options.secretKey),
    region,
    partSize
  })

  const request = <A>(reason: string, run: () => Promise<A>) =>
    Effect.tryPromise({ try: run, catch: (cause) => new BlobStoreError({ reason, cause }) }).pipe(
      Effect.timeoutOrElse({ duration: requestTimeout, orElse: () => Effect.fail(new BlobStoreError({ reason: `${reason}: no answer within ${Duration.format(requestTimeout)}` })) })
    )

  /** A missing object is BlobNotFound; anything else a BlobStoreError. */
  const lookup = <A>(key: BlobKey, reason: string, run: () => Promise<A>) =>
    request(reason, run).pipe(
      Effect.catchIf((error) => isAbsent(error.cause), () => Effect.fail(new BlobNotFound({ key })))
    )

  const ensureBucket = request(`could not create bucket ${bucket} at ${options.endpoint.origin}`, async () => {
    if (await client.bucketExists(bucket)) return
    await client.makeBucket(bucket, region).catch((error: unknown) => {
      // Another replica created it between our check and our request.
      if (errorCode(error) !== "BucketAlreadyOwnedByYou") throw error
    })
  })
  // In the distributed runtime MinIO may still be starting when a service does: give it a few seconds.
  yield* ensureBucket.pipe(
    Effect.retry({ schedule: Schedule.exponential("200 millis"), times: 5 }),
    Effect.withSpan("BlobStore.ensureBucket", { attributes: { bucket } })
  )

  const putWhole = (key: BlobKey, bytes: Buffer) =>
    request(`could not upload blob ${key}`, () => client.putObject(bucket, key, bytes, bytes.length))

  /**
   * Over plain HTTP the client signs each request with the payload's SHA-256, which already guards the bytes; over
   * TLS it signs "UNSIGNED-PAYLOAD", so a part carries its MD5 for the server to check.
   */
  const partHeaders = (bytes: Buffer): Record<string, string> =>
    endpoint.useSSL ? { "Content-MD5": createHash("md5").update(bytes).digest("base64") } : {}

  /**
   * One part uploads while the next one fills, so reading the input and hashing it overlap with the network and the
   * server: a put holds at most two parts.
   */
  const putInParts = Effect.fn("BlobStore.putInParts")(function*<E>(
    key: BlobKey,
    body: Stream.Stream<Uint8Array, E>,
    onBytes: (bytes: Uint8Array) => void
  ) {
    const cutter = makePartCutter(partSize)
    const parts: Array<{ readonly part: number; readonly etag: string }> = []
    let uploadId: string | undefined
    let partsStarted = 0
    let inFlight: Fiber.Fiber<void, BlobStoreError> | undefined
    // The stream may run its consumer in a fiber of its own: part uploads belong to the put, not to that fiber.
    const partsScope = yield* Scope.make()

    const awaitInFlight = Effect.suspend(() => inFlight === undefined ? Effect.void : Fiber.join(inFlight))

    const startPart = (bytes: Buffer) =>
      Effect.gen(function*() {
        // Uninterruptible up to the bookkeeping: an upload that the server started is one that an abort can find.
        const id = uploadId ?? (yield* request(`could not start a multipart upload of blob ${key}`, () =>
          client.initiateNewMultipartUpload(bucket, key, {})).pipe(
            Effect.tap((started) => Effect.sync(() => void (uploadId = started))),
            Effect.uninterruptible
          ))
        const part = ++partsStarted
        yield* awaitInFlight
        inFlight = yield* request(`could not upload part ${part} of blob ${key}`, () =>
          client.uploadPart(
            { bucketName: bucket, objectName: key, uploadID: id, partNumber: part, headers: partHeaders(bytes) },
            bytes
          )).pipe(
            Effect.map((uploaded) => void parts.push({ part, etag: uploaded.etag })),
            Effect.forkIn(partsScope)
          )
      })

    const upload = Effect.gen(function*() {
      yield* Stream.runForEach(body, (bytes) =>
        Effect.suspend(() => {
          onBytes(bytes)
          return Effect.forEach(cutter.push(bytes), startPart, { discard: true })
        }))
      const rest = cutter.rest()
      if (uploadId === undefined) return yield* putWhole(key, rest)
      yield* startPart(rest)
      yield* awaitInFlight
      const id = uploadId
      return yield* request(`could not complete the multipart upload of blob ${key}`, () =>
        client.completeMultipartUpload(bucket, key, id, parts))
    })

    // A failing input, a failed request or an interruption: drop the stored parts, leave the previous object.
    return yield* upload.pipe(Effect.onError(() =>
      Effect.gen(function*() {
        // A request cannot be called back: let the part in flight end first. A part that lands after the abort is
        // stored anyway (S3's documentation says to abort again; MinIO lists the upload again), and would stay.
        if (inFlight !== undefined) yield* Fiber.await(inFlight)
        if (uploadId === undefined) return
        const id = uploadId
        yield* request(`could not abort the multipart upload of blob ${key}`, () =>
          client.abortMultipartUpload(bucket, key, id)).pipe(
            Effect.tapError((error) => Effect.logWarning(error.reason)),
            Effect.ignore
          )
      })
    ), Effect.ensuring(Scope.close(partsScope, Exit.void)))
  })

  const put = Effect.fn("BlobStore.put")(function*<E>(key: BlobKey, body: Stream.Stream<Uint8Array, E>) {
    const hash = createHash("sha256")
    let size = 0
    yield* putInParts(key, body, (bytes) => {
      hash.update(bytes)
      size += bytes.length
    })
    return { key, size, sha256: hash.digest("hex") }
  })

  const openForReading = (key: BlobKey) =>
    Effect.acquireRelease(
      lookup(key, `could not read blob ${key}`, () => client.getObject(bucket, key)),
      // Closes the connection when the reader stops early.
      (readable: Readable) => Effect.sync(() => readable.destroy())
    )

  const get = (key: BlobKey) =>
    Stream.unwrap(Effect.map(openForReading(key), (readable) =>
      Stream.fromAsyncIterable(
        readable as AsyncIterable<Uint8Array>,
        (cause) => new BlobStoreError({ reason: `could not read blob ${key}`, cause })
      ))).pipe(Stream.withSpan("BlobStore.get", { attributes: { key } }))

  const stat = Effect.fn("BlobStore.stat")(function*(key: BlobKey) {
    const info = yield* lookup(key, `could not stat blob ${key}`, () => client.statObject(bucket, key))
    return { key, size: info.size }
  })

  // Deleting an absent object succeeds in S3, which makes remove idempotent as the port requires.
  const remove = Effect.fn("BlobStore.remove")(function*(key: BlobKey) {
    yield* request(`could not remove blob ${key}`, () => client.removeObject(bucket, key))
  })

  const removeBatch = (prefix: BlobKey, names: ReadonlyArray<string>) =>
    request(`could not remove the blobs under ${prefix}`, () => client.removeObjects(bucket, [...names])).pipe(
      Effect.flatMap((results) => {
        const failures = results.flatMap((result) => result?.Error ? [result.Error] : [])
        return failures.length === 0 ? Effect.void : Effect.fail(
          new BlobStoreError({
            reason: `could not remove ${failures.length} blob(s) under ${prefix}: ${failures[0]?.Code ?? "unknown"}`,
            cause: failures
          })
        )
      })
    )

  /**
   * Lists a page after the last key seen and deletes it, until a page comes back short. Paging by key (start-after)
   * rather than by continuation token stays correct while the listed objects disappear.
   */
  const removePrefix = Effect.fn("BlobStore.removePrefix")(function*(prefix: BlobKey) {
    const under = `${prefix}/`
    let after = ""
    for (;;) {
      const page = yield* request(`could not list the blobs under ${prefix}`, () =>
        client.listObjectsV2Query(bucket, under, "", "", listAndDeleteBatch, after))
      const names = page.objects.flatMap((object) => object.name === undefined ? [] : [object.name])
      if (names.length > 0) yield* removeBatch(prefix, names)
      if (!page.isTruncated || names.length === 0) break
      after = names[names.length - 1]!
    }
    yield* remove(prefix)
  })

  return BlobStore.of({ put, get, stat, remove, removePrefix })
})

export const layerS3 = (options: S3Options) => Layer.effect(BlobStore, makeS3(options))

const invalidSetting = (message: string) =>
  new Config.ConfigError(new Schema.SchemaError(new SchemaIssue.InvalidValue({ message })))

const endpointConfig = Config.String("S3_ENDPOINT").pipe(
  Config.mapEffect((text) => {
    const url = URL.parse(text)
    const problem = url === null
      ? "is not a URL"
      : !["http:", "https:"].includes(url.protocol)
      ? "must start with http:// or https://"
      : url.pathname !== "/" || url.search !== "" || url.username !== ""
      ? "must be only a scheme, a host and a port (no path, query or credentials)"
      : undefined
    return problem === undefined && url !== null
      ? Effect.succeed(url)
      : Effect.fail(invalidSetting(`S3_ENDPOINT ${JSON.stringify(text)} ${problem}`))
  })
)

/** The S3 settings: S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_BUCKET (default synth), S3_REGION (default us-east-1). */
export const s3Config: Config.Config<S3Options> = Config.all({
  endpoint: endpointConfig,
  accessKey: Config.Redacted("S3_ACCESS_KEY"),
  secretKey: Config.Redacted("S3_SECRET_KEY"),
  bucket: Config.String("S3_BUCKET").pipe(
    Config.withDefault("synth"),
    Config.mapEffect((name) =>
      bucketNamePattern.test(name)
        ? Effect.succeed(name)
        : Effect.fail(invalidSetting(
          "S3_BUCKET must be 3 to 63 characters of a-z, 0-9, '.' and '-', starting and ending with a letter or digit"
        ))
    )
  ),
  region: Config.String("S3_REGION").pipe(Config.withDefault("us-east-1"))
})

export const layerS3Config = Layer.unwrap(Effect.map(s3Config, layerS3))
