/**
 * Noise drawn in JavaScript from the training's seeded generator (so a seed reproduces a training) into typed arrays
 * for tf.tensor: plain loops, since Float32Array.from with a callback costs more than the draws themselves.
 */
import type { Random } from "../../random.ts"

export const standardNormals = (count: number, random: Random): Float32Array => fillStandardNormals(new Float32Array(count), random)

/**
 * Fills `into` with standard normal draws by Marsaglia's polar method on 32-bit uniforms: no sine or cosine and one
 * 32-bit draw per coordinate (Random.normal's Box–Muller takes two 53-bit uniforms, a logarithm, a sine and a cosine
 * per pair). ~2.5× faster here; a network's noise (64,000 draws a batch) cost 4–5 ms a step the other way. Float32
 * noise needs no more than 32 bits.
 */
export const fillStandardNormals = (into: Float32Array, random: Random): Float32Array => {
  const count = into.length
  let i = 0
  while (i < count) {
    const u = random.uint32() * 4.656612873077393e-10 - 1
    const v = random.uint32() * 4.656612873077393e-10 - 1
    const s = u * u + v * v
    if (s >= 1 || s === 0) continue
    const factor = Math.sqrt((-2 * Math.log(s)) / s)
    into[i++] = u * factor
    if (i < count) into[i++] = v * factor
  }
  return into
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
export const fairCoins = (count: number, value: number, random: Random): Float32Array =>
  fillFairCoins(new Float32Array(count), 0, count, value, random)

/**
 * fairCoins' draws written into `into` from `offset` on (the direct steps' masks: no array per draw). The words are
 * drawn first; then each byte of a word (its bits low to high, as fairCoins reads them) writes its 8 coins from a
 * 256-entry table, with no branch and no per-coin shift: a DP-CTGAN step draws 768,000 coins, which took ~15 ms
 * coin by coin and takes under 1 ms so. `| 0` keeps a word's 32 bits as floor would.
 */
export const fillFairCoins = (into: Float32Array, offset: number, count: number, value: number, random: Random): Float32Array => {
  const words = new Int32Array(Math.ceil(count / 32))
  for (let w = 0; w < words.length; w++) words[w] = (random.next() * 4294967296) | 0
  const table = coinTable(value)
  const wholeBytes = count >> 3
  for (let byte = 0; byte < wholeBytes; byte++) {
    const from = ((words[byte >> 2]! >>> ((byte & 3) << 3)) & 255) << 3
    const at = offset + (byte << 3)
    into[at] = table[from]!
    into[at + 1] = table[from + 1]!
    into[at + 2] = table[from + 2]!
    into[at + 3] = table[from + 3]!
    into[at + 4] = table[from + 4]!
    into[at + 5] = table[from + 5]!
    into[at + 6] = table[from + 6]!
    into[at + 7] = table[from + 7]!
  }
  for (let i = wholeBytes << 3; i < count; i++) into[offset + i] = value * ((words[i >> 5]! >>> (i & 31)) & 1)
  return into
}

/** For each byte, its 8 coins (bit k → entry k): `value` or 0. */
const coinTable = (value: number): Float32Array => {
  const table = new Float32Array(256 * 8)
  for (let byte = 0; byte < 256; byte++) {
    for (let bit = 0; bit < 8; bit++) table[byte * 8 + bit] = value * ((byte >>> bit) & 1)
  }
  return table
}
