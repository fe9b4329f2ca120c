/**
 * A seeded pseudo-random generator (xoshiro128**, 32-bit state words seeded by splitmix32): Math.random cannot be
 * seeded, and fit + sample must be reproducible from a seed. Not for secrets.
 */
export interface Random {
  /** Uniform in [0, 1). */
  readonly next: () => number
  /** Standard normal (Box–Muller; the second value of each pair is kept for the next call). */
  readonly normal: () => number
  /** Uniform integer in [0, bound). */
  readonly integer: (bound: number) => number
  /** A generator for a sub-task, independent of how much this one is used afterwards. */
  readonly fork: () => Random
}

const splitmix32 = (seed: number) => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x9e3779b9) >>> 0
    let z = state
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
    return (z ^ (z >>> 16)) >>> 0
  }
}

const rotl = (x: number, k: number) => ((x << k) | (x >>> (32 - k))) >>> 0

export const makeRandom = (seed: number): Random => {
  const init = splitmix32(seed)
  let s0 = init(), s1 = init(), s2 = init(), s3 = init()
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1
  const nextUint32 = () => {
    const result = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0
    const t = (s1 << 9) >>> 0
    s2 = (s2 ^ s0) >>> 0
    s3 = (s3 ^ s1) >>> 0
    s1 = (s1 ^ s2) >>> 0
    s0 = (s0 ^ s3) >>> 0
    s2 = (s2 ^ t) >>> 0
    s3 = rotl(s3, 11)
    return result
  }
  // 53 random bits: two draws, as a double in [0, 1).
  const next = () => ((nextUint32() >>> 5) * 67108864 + (nextUint32() >>> 6)) / 9007199254740992
  let spare: number | null = null
  const normal = () => {
    if (spare !== null) {
      const value = spare
      spare = null
      return value
    }
    let u = next()
    while (u === 0) u = next()
    const radius = Math.sqrt(-2 * Math.log(u))
    const angle = 2 * Math.PI * next()
    spare = radius * Math.sin(angle)
    return radius * Math.cos(angle)
  }
  const integer = (bound: number) => Math.floor(next() * bound)
  const fork = () => makeRandom(nextUint32())
  return { next, normal, integer, fork }
}
