/**
 * Noise drawn in JavaScript from the training's seeded generator (so a seed reproduces a training) into typed arrays
 * for tf.tensor: plain loops, since Float32Array.from with a callback costs more than the draws themselves.
 */
import type { Random } from "../../random.ts"

export const standardNormals = (count: number, random: Random): Float32Array => {
  const values = new Float32Array(count)
  for (let i = 0; i < count; i++) values[i] = random.normal()
  return values
}

/** N(0, deviation²) draws. */
export const gaussians = (count: number, deviation: number, random: Random): Float32Array => {
  const values = new Float32Array(count)
  for (let i = 0; i < count; i++) values[i] = random.normal() * deviation
  return values
}

/**
 * Each entry `value` or 0 with probability ½ (a fair coin): 32 coins per uniform draw, its 32 leading bits, which a
 * uniform double in [0, 1) holds independently.
 */
export const fairCoins = (count: number, value: number, random: Random): Float32Array => {
  const values = new Float32Array(count)
  for (let start = 0; start < count; start += 32) {
    let bits = Math.floor(random.next() * 4294967296)
    const end = Math.min(count, start + 32)
    for (let i = start; i < end; i++) {
      values[i] = (bits & 1) === 1 ? value : 0
      bits >>>= 1
    }
  }
  return values
}
