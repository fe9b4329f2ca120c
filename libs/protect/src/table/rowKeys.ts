import type { SynthTable } from "@synth/synth"

/**
 * Rows as keys for the similarity filter: a 64-bit hash of the row's values, column by column (numbers by their exact
 * bits, categories by their label's hash, a mark for missing), written as four UTF-16 code units. Equal rows always
 * get equal keys; two different rows share one with probability about 2⁻⁶⁴, which would only cost a needless redraw.
 * The filter keys every real and every output row, so this is on the hot path of sampling: hashing the values
 * directly is ~4× cheaper than building each row's text, and the short key makes the Bloom filter's own hash cheap.
 */

/** murmur3's 32-bit finaliser: every input bit reaches every output bit. */
const finalise = (value: number) => {
  let h = value
  h ^= h >>> 16
  h = Math.imul(h, 0x85eb_ca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2_ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** One lane of the row hash: the running value folded with the next 32-bit word (murmur3's block step). */
const fold = (running: number, word: number) => {
  let k = Math.imul(word, 0xcc9e_2d51)
  k = (k << 15) | (k >>> 17)
  k = Math.imul(k, 0x1b87_3593)
  const h = running ^ k
  return (Math.imul((h << 13) | (h >>> 19), 5) + 0xe654_6b64) >>> 0
}

/** FNV-1a over a label's UTF-16 code units, in two lanes with different offsets. */
const labelHash = (label: string): readonly [number, number] => {
  let a = 0x811c_9dc5
  let b = 0x050c_5d1f
  for (let index = 0; index < label.length; index++) {
    const unit = label.charCodeAt(index)
    a = Math.imul(a ^ unit, 0x0100_0193) >>> 0
    b = Math.imul(b ^ unit, 0x0100_0193) >>> 0
  }
  return [finalise(a ^ label.length), finalise(b + label.length)]
}

const bits = new Float64Array(1)
const halves = new Uint32Array(bits.buffer)
/** Words no value gives: a missing label, a missing number (NaN is never a value: missing values are flagged). */
const missingWords: readonly [number, number] = [0x6d69_7373, 0x696e_6721]

export const rowKeyer = (table: SynthTable): ((row: number) => string) => {
  // Each column writes its two words for the row into `words`; labels are hashed once per category.
  const words = new Uint32Array(2)
  const writers = table.columns.map((column): ((row: number) => void) => {
    if (column.kind === "categorical") {
      const hashes = column.categories.map(labelHash)
      return (row) => {
        const code = column.codes[row]!
        const [first, second] = code < 0 ? missingWords : hashes[code]!
        words[0] = first
        words[1] = second
      }
    }
    return (row) => {
      if (column.missing?.[row] === 1) {
        words[0] = missingWords[0]
        words[1] = missingWords[1]
        return
      }
      const value = column.values[row]!
      bits[0] = value === 0 ? 0 : value // -0 and 0 are one value
      words[0] = halves[0]!
      words[1] = halves[1]!
    }
  })
  return (row) => {
    let a = 0x9747_b28c
    let b = 0x2a3b_4c5d
    for (const write of writers) {
      write(row)
      a = fold(fold(a, words[0]!), words[1]!)
      b = fold(fold(b, words[1]!), words[0]!)
    }
    a = finalise(a ^ writers.length)
    b = finalise(b + writers.length)
    return String.fromCharCode(a & 0xffff, a >>> 16, b & 0xffff, b >>> 16)
  }
}
