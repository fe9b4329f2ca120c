import { createCipheriv, createHash } from "node:crypto"
import { type Random, randomFromWords } from "../random.ts"

/**
 * A Random whose draws no one can predict without a secret: the AES-256-CTR keystream (node:crypto) under
 * SHA-256(secret), started at a counter block derived from the seed. A DP mechanism's guarantee assumes its noise is
 * unknown to the adversary; noise drawn from `makeRandom(seed)` is not, to anyone who knows the seed (the generator
 * record shows it; a user may choose it) and can replay the draws, and 2³² seeds are few enough to try them all. With a
 * secret the service keeps, the same secret and seed still give the same draws, so a training stays reproducible by
 * the service.
 *
 * The draws are built from 32-bit words exactly as makeRandom builds them from xoshiro's (randomFromWords).
 */
const WORDS_PER_REFILL = 16_384

export const secretRandom = (secret: string, seed: number): Random => {
  const key = createHash("sha256").update(secret).digest()
  const counter = createHash("sha256").update(`synth.dp-noise\u0000${seed >>> 0}`).digest().subarray(0, 16)
  return keystreamRandom(key, counter)
}

const keystreamRandom = (key: Buffer, counter: Uint8Array): Random => {
  const cipher = createCipheriv("aes-256-ctr", key, counter)
  const zeros = new Uint8Array(WORDS_PER_REFILL * 4)
  let words = new Uint32Array(0)
  let at = 0
  const uint32 = () => {
    if (at === words.length) {
      const bytes = cipher.update(zeros)
      // Copied: a Buffer may sit at an offset that is not a multiple of 4 in a shared pool.
      words = new Uint32Array(Uint8Array.from(bytes).buffer)
      at = 0
    }
    return words[at++]!
  }
  // A sub-stream: the same key from a counter block drawn from this stream (2¹²⁸ starts: none will overlap in use).
  const fork = () => keystreamRandom(key, new Uint8Array(Uint32Array.of(uint32(), uint32(), uint32(), uint32()).buffer))
  return randomFromWords(uint32, fork)
}
