import { Effect, Stream } from "effect"
import { createHash } from "node:crypto"

/** Deterministic bytes (xorshift), so a failure is reproducible and no two offsets look alike. */
export const sampleBytes = (size: number, seed = 1) => {
  const bytes = new Uint8Array(size)
  let state = seed
  for (let index = 0; index < size; index++) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    bytes[index] = state & 0xff
  }
  return bytes
}

/** Cuts bytes into chunks of uneven sizes, as a network upload delivers them. */
export const chunked = (bytes: Uint8Array, sizes: ReadonlyArray<number> = [1, 4093, 65536, 70001, 12]) =>
  Stream.unfold({ offset: 0, turn: 0 }, ({ offset, turn }) => {
    if (offset >= bytes.length) return Effect.succeed(undefined)
    const end = Math.min(bytes.length, offset + sizes[turn % sizes.length]!)
    return Effect.succeed([bytes.slice(offset, end), { offset: end, turn: turn + 1 }] as const)
  })

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")
