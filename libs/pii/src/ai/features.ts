import { nameHint, nameWords } from "../context/columnName.ts"
import { hasVetoWord } from "../context/columnName.ts"
import { patternDetectors } from "../patterns/detectors.ts"
import { columnEvidence } from "../scan/evidence.ts"
import { type ColumnKind, type ColumnSample, piiTypes } from "../types.ts"
import { columnShapeSummary } from "./valueShape.ts"

/**
 * The local classifier's view of a column, as a fixed-length vector: hashed words and character trigrams of the
 * name; hashed value shapes; hashed character trigrams of values (letters lower-cased, digits as 9), which is what
 * lets it tell names and street addresses from other text; value statistics; the share of values each pattern
 * detector validates (and how many years a column of dates spans); the name's hint; how the values read word by word (names, places, things: lexicon/); and
 * whether they are decimals or Unix times. Hashing keeps the model small and keeps no word or value in it.
 */
const nameWordBuckets = 256
const nameTrigramBuckets = 256
const shapeBuckets = 256
const valueTrigramBuckets = 512
const kinds: ReadonlyArray<ColumnKind> = ["integer", "float", "boolean", "string", "date", "datetime"]
const statisticCount = 19
/** Shares of values read as a person, a place, a region, a thing, ambiguous (lexicon/). */
const vocabularyShares = 5
/** Decimals or Unix times (scan/evidence.ts). */
const numberKinds = 2
const hintWeight = { exact: 1, partial: 0.5, role: 0.25 } as const

const offsets = (() => {
  const nameWords = 0
  const nameTrigrams = nameWords + nameWordBuckets
  const shapes = nameTrigrams + nameTrigramBuckets
  const valueTrigrams = shapes + shapeBuckets
  const statistics = valueTrigrams + valueTrigramBuckets
  const kind = statistics + statisticCount
  const detectorShares = kind + kinds.length
  const hints = detectorShares + piiTypes.length
  const vocabulary = hints + piiTypes.length
  const numbers = vocabulary + vocabularyShares
  const width = numbers + numberKinds
  return { nameWords, nameTrigrams, shapes, valueTrigrams, statistics, kind, detectorShares, hints, vocabulary, numbers, width }
})()

export const featureWidth = offsets.width

/** FNV-1a, 32 bits: a stable hash of a string (the artifact depends on it: changing it needs a new version). */
export const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

const addHashed = (vector: Float32Array, offset: number, buckets: number, key: string, weight: number) => {
  vector[offset + (fnv1a(key) % buckets)]! += weight
}

const trigrams = (text: string) => {
  const padded = ` ${text} `
  const grams: Array<string> = []
  for (let index = 0; index + 3 <= padded.length; index++) grams.push(padded.slice(index, index + 3))
  return grams
}

/** Values whose trigrams and statistics are taken: evenly spaced, bounded. */
const maxValues = 150

export const columnFeatures = (column: ColumnSample): Float32Array => {
  const vector = new Float32Array(offsets.width)
  const words = nameWords(column.name)
  for (const word of words) addHashed(vector, offsets.nameWords, nameWordBuckets, word, 1 / Math.sqrt(words.length))
  const compact = words.join("")
  const nameGrams = trigrams(compact)
  for (const gram of nameGrams) addHashed(vector, offsets.nameTrigrams, nameTrigramBuckets, gram, 1 / Math.sqrt(nameGrams.length))

  for (const { shape, share } of columnShapeSummary(column, 8)) addHashed(vector, offsets.shapes, shapeBuckets, shape, share)

  const present = column.values.filter((value): value is string => value !== null && value.trim() !== "")
  const values = present.length <= maxValues ? present : Array.from({ length: maxValues }, (_, index) => present[Math.floor((index * present.length) / maxValues)]!)
  let gramCount = 0
  const gramCounts = new Map<number, number>()
  for (const value of values) {
    for (const gram of trigrams(value.toLowerCase().replace(/\d/g, "9"))) {
      const bucket = fnv1a(gram) % valueTrigramBuckets
      gramCounts.set(bucket, (gramCounts.get(bucket) ?? 0) + 1)
      gramCount++
    }
  }
  for (const [bucket, count] of gramCounts) vector[offsets.valueTrigrams + bucket] = Math.sqrt(count / Math.max(1, gramCount))

  const statistics = valueStatistics(values, present.length, column.values.length)
  statistics.forEach((value, index) => (vector[offsets.statistics + index] = value))
  vector[offsets.kind + kinds.indexOf(column.kind)] = 1

  const evidence = columnEvidence(column, patternDetectors, hasVetoWord)
  for (const [type, found] of evidence.byType) vector[offsets.detectorShares + piiTypes.indexOf(type)] = found.share
  const hint = nameHint(column.name)
  for (const type of hint?.types ?? []) vector[offsets.hints + piiTypes.indexOf(type)] = hintWeight[hint?.strength ?? "role"]
  const vocabulary = evidence.vocabulary
  if (vocabulary !== undefined) {
    const shares = [vocabulary.person, vocabulary.place, vocabulary.region, vocabulary.thing, vocabulary.ambiguous]
    shares.forEach((share, index) => (vector[offsets.vocabulary + index] = share))
  }
  if (evidence.numbers !== undefined) vector[offsets.numbers + (evidence.numbers === "decimals" ? 0 : 1)] = 1
  return vector
}

/**
 * How many years the middle 90 % of a column's dates span, over 100: birth dates spread over decades, dates of events
 * (orders, visits, sign-ups) over a few years. Relative, so the features of a table do not change as time passes.
 */
const yearSpread = (values: ReadonlyArray<string>): number => {
  const years = values.flatMap((value) => {
    const match = /^(\d{4})-\d{2}-\d{2}/.exec(value)
    return match === null ? [] : [Number(match[1])]
  })
  if (years.length < Math.max(2, values.length / 2)) return 0
  years.sort((a, b) => a - b)
  const low = years[Math.floor(years.length * 0.05)]!
  const high = years[Math.min(years.length - 1, Math.floor(years.length * 0.95))]!
  return Math.min(1, (high - low) / 100)
}

const valueStatistics = (values: ReadonlyArray<string>, present: number, total: number): ReadonlyArray<number> => {
  const n = Math.max(1, values.length)
  let length = 0, lengthSquares = 0, digits = 0, letters = 0, upper = 0, spaces = 0, punctuation = 0, characters = 0
  let at = 0, dot = 0, dash = 0, slash = 0, colon = 0, comma = 0, words = 0, capitalised = 0, numeric = 0
  for (const value of values) {
    length += value.length
    lengthSquares += value.length * value.length
    for (const character of value) {
      characters++
      if (character >= "0" && character <= "9") digits++
      else if (/\p{L}/u.test(character)) {
        letters++
        if (/\p{Lu}/u.test(character)) upper++
      } else if (character === " ") spaces++
      else punctuation++
    }
    if (value.includes("@")) at++
    if (value.includes(".")) dot++
    if (value.includes("-")) dash++
    if (value.includes("/")) slash++
    if (value.includes(":")) colon++
    if (value.includes(",")) comma++
    const tokens = value.split(/\s+/).filter((token) => token !== "")
    words += tokens.length
    if (tokens.length > 0 && tokens.every((token) => /^\p{Lu}\p{Ll}/u.test(token))) capitalised++
    if (/^[+-]?\d+(\.\d+)?$/.test(value)) numeric++
  }
  const meanLength = length / n
  const perCharacter = Math.max(1, characters)
  return [
    Math.min(1, meanLength / 40),
    Math.min(1, Math.sqrt(Math.max(0, lengthSquares / n - meanLength * meanLength)) / 20),
    digits / perCharacter,
    letters / perCharacter,
    upper / perCharacter,
    spaces / perCharacter,
    punctuation / perCharacter,
    at / n,
    dot / n,
    dash / n,
    slash / n,
    colon / n,
    comma / n,
    Math.min(1, words / n / 6),
    capitalised / n,
    numeric / n,
    values.length === 0 ? 0 : new Set(values).size / values.length,
    yearSpread(values),
    total === 0 ? 0 : present / total
  ]
}
