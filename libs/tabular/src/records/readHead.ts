/** The first bytes of a file, for sniffing, and all of its chunks (those first ones again, then the rest). */
export interface PeekedBytes {
  readonly head: Uint8Array
  readonly chunks: AsyncIterator<Uint8Array>
}

/**
 * Reads chunks until at least `size` bytes (or the whole file) are in hand, without a second read of the file: the
 * chunks read for the head are replayed before the rest.
 */
export const readHead = async (bytes: AsyncIterable<Uint8Array>, size: number): Promise<PeekedBytes> => {
  const source = bytes[Symbol.asyncIterator]()
  const seen: Array<Uint8Array> = []
  let seenLength = 0
  let done = false
  while (seenLength < size) {
    const next = await source.next()
    if (next.done === true) {
      done = true
      break
    }
    seen.push(next.value)
    seenLength += next.value.length
  }
  return { head: concatenate(seen, Math.min(seenLength, size)), chunks: replayThen(seen, done ? null : source) }
}

const concatenate = (chunks: ReadonlyArray<Uint8Array>, length: number): Uint8Array => {
  const head = new Uint8Array(length)
  let offset = 0
  for (const chunk of chunks) {
    if (offset >= length) break
    const part = chunk.length <= length - offset ? chunk : chunk.subarray(0, length - offset)
    head.set(part, offset)
    offset += part.length
  }
  return head
}

/** An iterator rather than a generator so that `return` closes the source even before the first `next`. */
const replayThen = (seen: Array<Uint8Array>, rest: AsyncIterator<Uint8Array> | null): AsyncIterator<Uint8Array> => ({
  next: async () => {
    const replayed = seen.shift()
    if (replayed !== undefined) return { done: false, value: replayed }
    return rest === null ? { done: true, value: undefined } : rest.next()
  },
  return: async () => {
    seen.length = 0
    await rest?.return?.()
    return { done: true, value: undefined }
  }
})
