import type { Draw } from "@synth/pii"
import { makeRandom, type Random } from "@synth/synth"
import type { Held } from "./mix.ts"

/**
 * The seeded draws a faker makes besides faker's own: structure (which format, which locale), digits and letters.
 * On the project's xoshiro generator rather than faker's Mersenne Twister: ~10 ns a draw, and a million fakes need
 * tens of millions of them.
 */
export interface Draws extends Draw {
  readonly random: Random
  /** Uniform in [0, 1). */
  readonly unit: () => number
  readonly chance: (probability: number) => boolean
  /** One character of the alphabet. */
  readonly character: (alphabet: string) => string
  /** A picker over a learned mix, each entry as likely as the rows it stands for. */
  readonly weighted: <A>(mix: ReadonlyArray<Held<A>>) => () => A
  /** A 32-bit seed for a sub-generator (a seeded Faker). */
  readonly seed: () => number
}

export const makeDraws = (seed: number): Draws => {
  const random = makeRandom(seed)
  const integer = (low: number, high: number) => low + Math.floor(random.next() * (high - low + 1))
  const digits = (count: number) => {
    let text = ""
    // Nine digits a draw: a 53-bit uniform times 10⁹ is unbiased to far below anything measurable.
    while (text.length < count) {
      const chunk = String(Math.floor(random.next() * 1e9)).padStart(9, "0")
      text += chunk.slice(0, Math.min(9, count - text.length))
    }
    return text
  }
  const weighted = <A>(mix: ReadonlyArray<Held<A>>): (() => A) => {
    if (mix.length === 0) throw new Error("a learned mix is never empty: the type's default stands in")
    if (mix.length === 1) {
      const value = mix[0]!.value
      return () => value
    }
    const cumulative = new Float64Array(mix.length)
    let total = 0
    mix.forEach((entry, index) => {
      total += entry.rows
      cumulative[index] = total
    })
    return () => {
      const target = random.next() * total
      let index = 0
      while (index < cumulative.length - 1 && cumulative[index]! <= target) index++
      return mix[index]!.value
    }
  }
  return {
    random,
    unit: random.next,
    integer,
    digits,
    pick: (items) => items[Math.floor(random.next() * items.length)]!,
    chance: (probability) => random.next() < probability,
    character: (alphabet) => alphabet[Math.floor(random.next() * alphabet.length)]!,
    weighted,
    seed: random.uint32
  }
}

/** A 32-bit hash of a text (FNV-1a), to give each column its own stream from one request seed. */
export const textHash = (text: string): number => {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/**
 * `count` distinct positions of `size`, each set equally likely, as a 0/1 mask: Floyd's sampling, as many draws as
 * positions chosen and no permutation of all of them.
 */
export const randomSubset = (size: number, count: number, draws: Draws): Uint8Array => {
  const chosen = new Uint8Array(size)
  for (let candidate = size - Math.min(size, count); candidate < size; candidate++) {
    const position = draws.integer(0, candidate)
    chosen[chosen[position] === 1 ? candidate : position] = 1
  }
  return chosen
}
