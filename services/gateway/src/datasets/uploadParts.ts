import { Multipart } from "effect/http"
import { type UserId } from "@synth/contracts"
import type { BlobKey, BlobStore } from "@synth/blobstore"
import { Duration, Effect, Option, Stream } from "effect"
import { limitBytes } from "./sizeLimit.ts"
import { failWhenStuck } from "./stuckBody.ts"
import { uploadFilename } from "./uploadFilename.ts"

/** How long a multipart body may keep the parser waiting once the whole body is in (stuckBody.ts). */
const stuckGrace = Duration.seconds(5)

export const missingFileDetail = (why: string) => `${why} Send multipart/form-data with the file in a part named \`file\`.`

/** What an upload whose body is not multipart is told (400 missing_file), by the handler or by the HTTP layer. */
export const notMultipartDetail = (contentType: string) =>
  missingFileDetail(`The body is ${contentType === "" ? "not typed" : contentType}, not multipart/form-data.`)

/** Room for the multipart framing around the file when the declared Content-Length is checked before reading. */
export const multipartOverheadBytes = 1024 * 1024

export interface UploadRequest {
  readonly owner: UserId
  readonly parts: Stream.Stream<Multipart.Part, Multipart.MultipartError>
  readonly headers: Readonly<Record<string, string | undefined>>
  /** Whether the whole request body has been received (the parser's view, whether or not it has been read). */
  readonly isBodyReceived: () => boolean
}

export interface StoredOriginal {
  readonly filename: string
  readonly contentType: string | null
  readonly size: number
  readonly sha256: string
}

/**
 * Stores the `file` part of an upload under `key`; any other part is read past (within the same byte budget of
 * `maxBytes`). None when there is no `file` part.
 */
export const storeFilePart = <E1, E2>(
  blobs: BlobStore["Service"],
  key: BlobKey,
  parts: UploadRequest["parts"],
  options: {
    readonly maxBytes: number
    readonly tooLarge: () => E1
    readonly unreadable: () => E2
    /** See failWhenStuck; never true when absent (a body read from somewhere that cannot stall). */
    readonly isBodyReceived?: () => boolean
  }
): Effect.Effect<Option.Option<StoredOriginal>, E1 | E2> => {
  const budget = { bytes: 0 }
  const unreadable = (error: Multipart.MultipartError) =>
    error.reason._tag === "FileTooLarge" || error.reason._tag === "BodyTooLarge" ? options.tooLarge() : options.unreadable()
  const unstuck = failWhenStuck(options.isBodyReceived ?? (() => false), stuckGrace, options.unreadable)
  const limited = (content: Stream.Stream<Uint8Array, Multipart.MultipartError>) =>
    content.pipe(Stream.mapError(unreadable), unstuck, limitBytes(options.maxBytes, options.tooLarge, budget))
  return parts.pipe(
    Stream.mapError(unreadable),
    unstuck,
    Stream.runFoldEffect(() => Option.none<StoredOriginal>(), (stored, part) => {
      if (Option.isNone(stored) && Multipart.isFile(part) && part.key === "file") {
        return blobs.put(key, limited(part.content)).pipe(
          Effect.catchTag("BlobStoreError", Effect.die),
          Effect.map((put) =>
            Option.some({
              filename: uploadFilename(part.name),
              contentType: part.contentType === "" ? null : part.contentType,
              size: put.size,
              sha256: put.sha256
            })
          )
        )
      }
      return Multipart.isFile(part) ? Effect.as(Stream.runDrain(limited(part.content)), stored) : Effect.succeed(stored)
    }),
    // Parts whose content type is listed as a "field" type (JSON by default) would be buffered as text fields:
    // an uploaded .json file must stream like any other file.
    Effect.provideService(Multipart.FieldMimeTypes, []),
    Effect.provideService(Multipart.MaxFileSize, undefined)
  )
}
