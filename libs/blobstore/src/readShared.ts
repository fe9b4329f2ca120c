import { Effect, Stream } from "effect"
import type { BlobKey } from "./BlobKey.ts"
import type { BlobStore } from "./BlobStore.ts"
import { concatBytes } from "./readAll.ts"

const sharedCopy = (bytes: Uint8Array): Uint8Array => {
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.length))
  shared.set(bytes)
  return shared
}

/**
 * The whole of a blob in one SharedArrayBuffer, written as it streams in (no chunks held beside the result): posted
 * to a worker thread it is shared, not copied, so a table read for a job is held once in the process, however many
 * times the job is posted. The size comes from `stat`; a blob replaced meanwhile (another size) is still read whole.
 */
export const readShared = (store: BlobStore["Service"], key: BlobKey) =>
  Effect.gen(function* () {
    const { size } = yield* store.stat(key)
    const target = new Uint8Array(new SharedArrayBuffer(size))
    let filled = 0
    /** Chunks that no longer fit (the blob grew since `stat`): the whole is joined again at the end. */
    let overflow: Array<Uint8Array> | null = null
    yield* Stream.runForEach(store.get(key), (chunk) =>
      Effect.sync(() => {
        if (overflow === null && filled + chunk.length <= size) {
          target.set(chunk, filled)
          filled += chunk.length
        } else {
          overflow ??= [target.subarray(0, filled)]
          overflow.push(chunk)
        }
      }))
    if (overflow !== null) return sharedCopy(concatBytes(overflow))
    return filled === size ? target : target.subarray(0, filled)
  })
