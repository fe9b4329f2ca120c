/**
 * Distinct UTF-8 byte strings, each given a code in order of first appearance, looked up by their bytes: a column of
 * a million rows with five values decodes five strings, not a million (decoding every row was most of the time of
 * reading a large table's string columns, and a string per row for the collector to sweep).
 *
 * Open addressing over a power-of-two table of codes; each code's bytes are kept in one growing pool (copied, so the
 * dictionary never holds the Arrow buffers it was read from).
 */
export class Utf8Dictionary {
  readonly categories: Array<string> = []
  /**
   * Two different byte strings decode to one string only when one is not valid UTF-8 (its decoding holds U+FFFD in
   * place of the bad bytes); they then share the code of that string, as decoding every row would have given.
   */
  readonly #codeOfReplaced = new Map<string, number>()
  #slots = new Int32Array(1024).fill(-1)
  #hashes = new Int32Array(256)
  /** Each byte string's code (two may share one: see #codeOfReplaced), by entry. */
  #codes = new Int32Array(256)
  #starts = new Int32Array(257)
  #pool = new Uint8Array(4096)
  #entries = 0
  readonly #strict = new TextDecoder("utf-8", { fatal: true })
  readonly #lenient = new TextDecoder()

  /** The code of `bytes[start, end)`, added when new. */
  codeOf(bytes: Uint8Array, start: number, end: number): number {
    const hash = fnv1a(bytes, start, end)
    const mask = this.#slots.length - 1
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.#slots[slot]!
      if (entry === -1) return this.#add(slot, hash, bytes, start, end)
      if (this.#hashes[entry] === hash && this.#sameBytes(entry, bytes, start, end)) return this.#codes[entry]!
    }
  }

  #sameBytes(entry: number, bytes: Uint8Array, start: number, end: number): boolean {
    const from = this.#starts[entry]!
    if (this.#starts[entry + 1]! - from !== end - start) return false
    const pool = this.#pool
    for (let index = 0; index < end - start; index++) if (pool[from + index] !== bytes[start + index]) return false
    return true
  }

  #add(slot: number, hash: number, bytes: Uint8Array, start: number, end: number): number {
    const entry = this.#entries++
    this.#ensureRoom(entry, end - start)
    const from = this.#starts[entry]!
    this.#pool.set(bytes.subarray(start, end), from)
    this.#starts[entry + 1] = from + end - start
    this.#hashes[entry] = hash
    this.#codes[entry] = this.#codeOfText(bytes.subarray(start, end))
    this.#slots[slot] = entry
    if (this.#entries * 2 > this.#slots.length) this.#rehash()
    return this.#codes[entry]!
  }

  #codeOfText(bytes: Uint8Array): number {
    let text: string
    try {
      text = this.#strict.decode(bytes)
    } catch {
      text = this.#lenient.decode(bytes)
    }
    const replaced = text.includes("\uFFFD")
    const known = replaced ? this.#codeOfReplaced.get(text) : undefined
    if (known !== undefined) return known
    const code = this.categories.length
    this.categories.push(text)
    if (replaced) this.#codeOfReplaced.set(text, code)
    return code
  }

  #ensureRoom(entry: number, length: number) {
    if (entry + 2 > this.#starts.length) {
      this.#starts = grownInts(this.#starts, this.#starts.length * 2)
      this.#hashes = grownInts(this.#hashes, this.#starts.length)
      this.#codes = grownInts(this.#codes, this.#starts.length)
    }
    const needed = this.#starts[entry]! + length
    if (needed > this.#pool.length) {
      const pool = new Uint8Array(Math.max(needed, this.#pool.length * 2))
      pool.set(this.#pool)
      this.#pool = pool
    }
  }

  #rehash() {
    const slots = new Int32Array(this.#slots.length * 2).fill(-1)
    const mask = slots.length - 1
    for (let entry = 0; entry < this.#entries; entry++) {
      let slot = this.#hashes[entry]! & mask
      while (slots[slot] !== -1) slot = (slot + 1) & mask
      slots[slot] = entry
    }
    this.#slots = slots
  }
}

const grownInts = (array: Int32Array, length: number): Int32Array<ArrayBuffer> => {
  const copy = new Int32Array(length)
  copy.set(array)
  return copy
}

/** 32-bit FNV-1a: cheap, and spreads short strings well enough for a table that is at most half full. */
const fnv1a = (bytes: Uint8Array, start: number, end: number): number => {
  let hash = 0x811c9dc5
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ bytes[index]!, 0x01000193)
  return hash | 0
}
