import { makeData, makeVector, Utf8, vectorFromArray } from "apache-arrow"
import { describe, expect, it } from "vitest"
import { dictionaryEncode } from "./columnValues.ts"
import { Utf8Dictionary } from "./utf8Dictionary.ts"

/** What decoding every row gives: the codes the byte-level dictionary must reproduce exactly. */
const byValue = (values: ReadonlyArray<string | null>) => {
  const codeOf = new Map<string, number>()
  const codes = Int32Array.from(values, (value) => {
    if (value === null) return -1
    if (!codeOf.has(value)) codeOf.set(value, codeOf.size)
    return codeOf.get(value)!
  })
  return { codes, categories: [...codeOf.keys()] }
}

/** xorshift32, so a failing case can be run again. */
const seeded = (seed: number) => () => {
  seed ^= seed << 13
  seed ^= seed >>> 17
  seed ^= seed << 5
  return (seed >>> 0) / 2 ** 32
}

const alphabet = ["a", "b", "é", "日", "😀", " ", ","]

const randomValues = (random: () => number, rows: number, distinct: number) => {
  const pool = Array.from({ length: distinct }, () =>
    Array.from({ length: Math.floor(random() * 4) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(""))
  return Array.from({ length: rows }, () => (random() < 0.1 ? null : pool[Math.floor(random() * pool.length)]!))
}

/** A Utf8 vector of several chunks, the later ones sliced out of larger data (offsets not starting at 0). */
const chunked = (values: ReadonlyArray<string | null>, random: () => number) => {
  let vector = vectorFromArray([] as Array<string | null>, new Utf8())
  for (let start = 0; start < values.length;) {
    const length = 1 + Math.floor(random() * 40)
    const padded = vectorFromArray(["pad", ...values.slice(start, start + length), "pad"], new Utf8())
    vector = vector.concat(padded.slice(1, 1 + Math.min(length, values.length - start)))
    start += length
  }
  return vector
}

describe("dictionaryEncode on Utf8 bytes", () => {
  it("gives the codes and categories of decoding every row, over chunks, slices, nulls and multi-byte text", () => {
    for (let seed = 1; seed <= 40; seed++) {
      const random = seeded(seed)
      const values = randomValues(random, 1 + Math.floor(random() * 600), 1 + Math.floor(random() * 300))
      const vector = chunked(values, random)
      expect(vector.length).toBe(values.length)
      expect(dictionaryEncode(vector), `seed ${seed}`).toEqual(byValue(values))
    }
  })

  it("keeps apart thousands of distinct values as its table grows", () => {
    const values = Array.from({ length: 20_000 }, (_, row) => `lot ${(row * 7919) % 5003}`)
    expect(dictionaryEncode(vectorFromArray(values, new Utf8()))).toEqual(byValue(values))
  })

  it("gives byte strings that decode alike (invalid UTF-8) the one code decoding gives them", () => {
    // 0xff is never valid UTF-8: "a\xff" and "a\xfe" both decode to "a\uFFFD", as do the valid bytes of "a\uFFFD".
    const parts = [[0x61, 0xff], [0x61, 0xfe], [0x61, 0xef, 0xbf, 0xbd], [0x62]]
    const bytes = Uint8Array.from(parts.flat())
    const valueOffsets = Int32Array.from([0, ...parts.map((_, index) => parts.slice(0, index + 1).flat().length)])
    const vector = makeVector(makeData({ type: new Utf8(), length: parts.length, valueOffsets, data: bytes }))
    expect(dictionaryEncode(vector)).toEqual({ codes: Int32Array.of(0, 0, 0, 1), categories: ["a\uFFFD", "b"] })
  })
})

describe("Utf8Dictionary", () => {
  it("looks a value up by its bytes wherever they lie, and keeps its own copy of them", () => {
    const dictionary = new Utf8Dictionary()
    const first = new TextEncoder().encode("xxcatyy")
    expect(dictionary.codeOf(first, 2, 5)).toBe(0)
    first.fill(0)
    expect(dictionary.codeOf(new TextEncoder().encode("cat"), 0, 3)).toBe(0)
    expect(dictionary.codeOf(new TextEncoder().encode("dog"), 0, 3)).toBe(1)
    expect(dictionary.codeOf(new Uint8Array(0), 0, 0)).toBe(2)
    expect(dictionary.categories).toEqual(["cat", "dog", ""])
  })
})
