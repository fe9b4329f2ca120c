import type { Random } from "../random.ts"
import type { CategoricalColumn } from "../table.ts"
import { argmax } from "./continuousColumn.ts"

/**
 * One-hot encoding of a string or boolean column, bounded in width. Every category seen in the data gets a slot of
 * its own while there are at most `maxCategories`; past that, the `maxCategories − 1` most frequent keep theirs and
 * the rest share one "other" slot, which decodes to one of them drawn by its frequency in the data. So a column of
 * thousands of categories costs a fixed width (the network and every encoded batch stay small), the frequent
 * categories are modelled exactly, the rare ones keep their share and their relative frequencies (not their
 * correlations with other columns), and decoding only ever yields labels that occur in the input. A missing value
 * is a slot of its own, so it is learned and re-injected like any category.
 */
export interface CategoricalSpec {
  readonly kind: "categorical"
  readonly name: string
  readonly type: CategoricalColumn["type"]
  /** The labels that occur in the data, in the input's order: the decoded column's categories. */
  readonly categories: ReadonlyArray<string>
  /** For each slot with a category of its own, that category's index in `categories`. */
  readonly slotCategories: ReadonlyArray<number>
  /** The categories sharing the "other" slot and how often each occurs; empty when every category has a slot. */
  readonly other: { readonly categories: ReadonlyArray<number>; readonly counts: ReadonlyArray<number> }
  readonly hasMissing: boolean
}

/** Counts every row once (cheap next to training), so the frequencies are exact. */
export const fitCategoricalSpec = (column: CategoricalColumn, maxCategories: number): CategoricalSpec => {
  const counts = new Float64Array(column.categories.length)
  let missing = 0
  for (const code of column.codes) {
    if (code < 0) missing++
    else counts[code]! += 1
  }
  const occurring = Array.from(counts.keys()).filter((code) => counts[code]! > 0)
  const categories = occurring.map((code) => column.categories[code]!)
  // Indices into `categories` from here on.
  const byFrequency = Array.from(occurring.keys()).sort((a, b) => counts[occurring[b]!]! - counts[occurring[a]!]! || a - b)
  const ownSlots = occurring.length <= maxCategories ? byFrequency : byFrequency.slice(0, Math.max(1, maxCategories - 1))
  const shared = occurring.length <= maxCategories ? [] : byFrequency.slice(ownSlots.length).sort((a, b) => a - b)
  return {
    kind: "categorical",
    name: column.name,
    type: column.type,
    categories,
    slotCategories: ownSlots.sort((a, b) => a - b),
    other: { categories: shared, counts: shared.map((index) => counts[occurring[index]!]!) },
    hasMissing: missing > 0
  }
}

/** Own slots, then "other" when some categories share it, then "missing" when the column had missing values. */
export const categoricalWidth = (spec: CategoricalSpec): number =>
  spec.slotCategories.length + (spec.other.categories.length > 0 ? 1 : 0) + (spec.hasMissing ? 1 : 0)

export interface CategoricalCodec {
  /** Every row's slot. */
  readonly slotOf: (column: CategoricalColumn) => Int32Array
  /** One row's slot. */
  readonly slotAt: (column: CategoricalColumn, row: number) => number
  readonly encode: (slot: number, into: Float32Array, offset: number) => void
  /** The decoded category's index in `spec.categories`, or -1 for missing. */
  readonly decode: (encoded: Float32Array, offset: number, random: Random) => number
}

export const categoricalCodec = (spec: CategoricalSpec): CategoricalCodec => {
  const width = categoricalWidth(spec)
  const ownSlots = spec.slotCategories.length
  const otherSlot = spec.other.categories.length > 0 ? ownSlots : -1
  const missingSlot = spec.hasMissing ? width - 1 : -1
  const slotByLabel = new Map<string, number>()
  spec.slotCategories.forEach((category, slot) => slotByLabel.set(spec.categories[category]!, slot))
  for (const category of spec.other.categories) slotByLabel.set(spec.categories[category]!, otherSlot)
  const cumulative = new Float64Array(spec.other.counts.length)
  spec.other.counts.reduce((running, count, i) => (cumulative[i] = running + count), 0)

  // A column's codes index its own category list, which need not be the fitted one (a reloaded transformer
  // encoding another table with the same columns): map them through the labels, once per column object.
  const slotsByCode = new WeakMap<CategoricalColumn, Int32Array>()
  const slotsOf = (column: CategoricalColumn): Int32Array => {
    let slots = slotsByCode.get(column)
    if (slots === undefined) {
      slots = Int32Array.from(column.categories, (label) => slotByLabel.get(label) ?? -1)
      slotsByCode.set(column, slots)
    }
    return slots
  }

  const slotAt = (column: CategoricalColumn, row: number): number => {
    const code = column.codes[row]!
    const slot = code < 0 ? missingSlot : slotsOf(column)[code]!
    if (slot < 0) {
      const what = code < 0 ? "a missing value" : `the category ${JSON.stringify(column.categories[code])}`
      throw new RangeError(`column ${spec.name}: ${what} was not in the data the transformer was fitted on`)
    }
    return slot
  }

  const slotOf = (column: CategoricalColumn): Int32Array => Int32Array.from(column.codes, (_, row) => slotAt(column, row))

  const encode = (slot: number, into: Float32Array, offset: number) => {
    for (let k = 0; k < width; k++) into[offset + k] = k === slot ? 1 : 0
  }

  const drawOther = (random: Random): number => {
    const target = random.next() * cumulative[cumulative.length - 1]!
    let low = 0
    let high = cumulative.length - 1
    while (low < high) {
      const middle = (low + high) >>> 1
      if (cumulative[middle]! > target) high = middle
      else low = middle + 1
    }
    return spec.other.categories[low]!
  }

  const decode = (encoded: Float32Array, offset: number, random: Random): number => {
    const slot = argmax(encoded, offset, width)
    if (slot === missingSlot) return -1
    if (slot === otherSlot) return drawOther(random)
    return spec.slotCategories[slot]!
  }

  return { slotOf, slotAt, encode, decode }
}
