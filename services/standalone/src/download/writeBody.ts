import * as NodeSink from "@effect/platform-node/NodeSink"
import { Effect, FileSystem, PlatformError, Stream } from "effect"
import { randomBytes } from "node:crypto"
import { basename, dirname, join } from "node:path"
import { UploadUsageError } from "../upload/errors.ts"
import { DownloadFailed } from "./errors.ts"

/** Where the bytes go: stdout (`--output -`), or a file that is replaced only when asked to. */
export type Destination =
  | { readonly kind: "stdout" }
  | { readonly kind: "file"; readonly path: string; readonly replace: boolean }

export const existsMessage = (path: string) => `${path} exists: give --force to replace it, or --output another file`

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))

const alreadyExists = (error: PlatformError.PlatformError) => error.reason._tag === "AlreadyExists"

/**
 * Streams `body` into a file it creates (never one that exists: `wx`), chunk by chunk, so memory stays flat for any
 * size. A download that fails or is interrupted (Ctrl-C) removes what it wrote, so no half file is left looking whole.
 */
const intoNewFile = <E>(body: Stream.Stream<Uint8Array, E>, path: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    let created = false
    yield* Effect.scoped(
      Effect.gen(function*() {
        const file = yield* fs.open(path, { flag: "wx" }).pipe(
          Effect.mapError((error) =>
            alreadyExists(error)
              ? new UploadUsageError({ message: existsMessage(path) })
              : new DownloadFailed({ message: `could not create ${path}: ${describe(error)}` })
          )
        )
        created = true
        yield* Stream.runForEach(body, (chunk) =>
          file.writeAll(chunk).pipe(Effect.mapError((error) => new DownloadFailed({ message: `could not write ${path}: ${describe(error)}` }))))
      })
    ).pipe(Effect.onError(() => (created ? Effect.ignore(fs.remove(path)) : Effect.void)))
  })

/**
 * A file that is to be replaced keeps its old content until the new one is complete: the bytes go to a hidden file
 * beside it, renamed over it at the end (one atomic step on the same file system).
 */
const replacingFile = <E>(body: Stream.Stream<Uint8Array, E>, path: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const partial = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.part`)
    yield* intoNewFile(body, partial)
    yield* fs.rename(partial, path).pipe(
      Effect.tapError(() => Effect.ignore(fs.remove(partial))),
      Effect.mapError((error) => new DownloadFailed({ message: `could not replace ${path}: ${describe(error)}` }))
    )
  })

/** Writes the downloaded bytes to their destination as they arrive. */
export const writeBody = <E>(body: Stream.Stream<Uint8Array, E>, destination: Destination) => {
  if (destination.kind === "stdout") {
    return Stream.run(
      body,
      NodeSink.fromWritable({
        evaluate: () => process.stdout,
        onError: (error) => new DownloadFailed({ message: `could not write to stdout: ${describe(error)}` }),
        endOnDone: false
      })
    )
  }
  return destination.replace ? replacingFile(body, destination.path) : intoNewFile(body, destination.path)
}
