import type { Draw } from "./validValues.ts"

/** Seeded draws for the corpus (mulberry32): faker's own generator is re-seeded per table, this one per corpus. */
export const makeDraw = (seed: number): Draw & { readonly next: () => number } => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const integer = (low: number, high: number) => low + Math.floor(next() * (high - low + 1))
  return {
    next,
    integer,
    digits: (count) => Array.from({ length: count }, () => String(integer(0, 9))).join(""),
    pick: (items) => items[Math.floor(next() * items.length)]!
  }
}
