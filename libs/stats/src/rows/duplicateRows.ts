import type { ProfileColumn, ProfileInput } from "../ProfileInput.ts"
import { isCategoricalColumn } from "../ProfileInput.ts"

// One 32-bit hash per row (column by column, so each column is read sequentially), then an open-addressing table
// of row indices: memory is 4 bytes per row plus 8 per table slot, whatever the width of the table.

const float = new Float64Array(1)
const floatWords = new Uint32Array(float.buffer)

const mix = (hash: number, word: number): number => {
  let k = Math.imul(word, 0xcc9e2d51)
  k = (k << 15) | (k >>> 17)
  k = Math.imul(k, 0x1b873593)
  const h = hash ^ k
  return (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0
}

const finalise = (hash: number): number => {
  let h = hash ^ (hash >>> 16)
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

const hashRows = (input: ProfileInput): Uint32Array => {
  const hashes = new Uint32Array(input.rowCount)
  for (const column of input.columns) {
    if (isCategoricalColumn(column)) {
      const codes = column.codes
      for (let row = 0; row < hashes.length; row++) hashes[row] = mix(hashes[row]!, codes[row]!)
      continue
    }
    const values = column.values
    for (let row = 0; row < hashes.length; row++) {
      const value = values[row]!
      // Equal values must hash alike: -0 folds into 0 and every NaN into one missing marker.
      float[0] = Number.isNaN(value) ? NaN : value + 0
      hashes[row] = mix(mix(hashes[row]!, floatWords[0]!), floatWords[1]!)
    }
  }
  for (let row = 0; row < hashes.length; row++) hashes[row] = finalise(hashes[row]!)
  return hashes
}

const sameCell = (column: ProfileColumn, a: number, b: number): boolean => {
  if (isCategoricalColumn(column)) return column.codes[a] === column.codes[b]
  const x = column.values[a]!
  const y = column.values[b]!
  return x === y || (Number.isNaN(x) && Number.isNaN(y))
}

const sameRow = (input: ProfileInput, a: number, b: number): boolean =>
  input.columns.every((column) => sameCell(column, a, b))

/** Rows equal to an earlier row on every column, missing equal to missing: pandas' `df.duplicated().sum()`. */
export const duplicateRowCount = (input: ProfileInput): number => {
  if (input.rowCount < 2) return 0
  const hashes = hashRows(input)
  let capacity = 1
  while (capacity < input.rowCount * 2) capacity <<= 1
  const mask = capacity - 1
  const slots = new Int32Array(capacity).fill(-1)
  let duplicates = 0
  for (let row = 0; row < input.rowCount; row++) {
    const hash = hashes[row]!
    let slot = hash & mask
    for (;;) {
      const occupant = slots[slot]!
      if (occupant === -1) {
        slots[slot] = row
        break
      }
      if (hashes[occupant] === hash && sameRow(input, occupant, row)) {
        duplicates++
        break
      }
      slot = (slot + 1) & mask
    }
  }
  return duplicates
}
