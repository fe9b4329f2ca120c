import { Context, Data, type Effect, type Stream } from "effect"
import type { BlobKey } from "./BlobKey.ts"

export class BlobNotFound extends Data.TaggedError("BlobNotFound")<{ readonly key: BlobKey }> {}

export class BlobStoreError extends Data.TaggedError("BlobStoreError")<{
  readonly reason: string
  readonly cause?: unknown
}> {}

export interface BlobInfo {
  readonly key: BlobKey
  readonly size: number
}

export interface PutResult extends BlobInfo {
  /** Hex SHA-256 of the bytes written. */
  readonly sha256: string
}

/**
 * The blob-store port: uploaded files, normalised tables, synthetic outputs and model artifacts.
 * A put is atomic: readers see the whole object or none of it. Keys are built only by `BlobKey.make`.
 */
export class BlobStore extends Context.Service<
  BlobStore,
  {
    /** Streams bytes in; fails the put (storing nothing) if the stream fails, e.g. when an upload exceeds a limit. */
    readonly put: <E>(key: BlobKey, body: Stream.Stream<Uint8Array, E>) => Effect.Effect<PutResult, BlobStoreError | E>
    readonly get: (key: BlobKey) => Stream.Stream<Uint8Array, BlobNotFound | BlobStoreError>
    readonly stat: (key: BlobKey) => Effect.Effect<BlobInfo, BlobNotFound | BlobStoreError>
    /** Removing an absent blob succeeds (deletes are retried by idempotent handlers). */
    readonly remove: (key: BlobKey) => Effect.Effect<void, BlobStoreError>
    /** Removes every blob whose key starts with the prefix's segments (e.g. all blobs of a dataset). */
    readonly removePrefix: (prefix: BlobKey) => Effect.Effect<void, BlobStoreError>
  }
>()("@synth/blobstore/BlobStore") {}
