import type { CandidateSource, CompileContext, LearnContext } from "../family.ts"
import { fakeError } from "../family.ts"
import type { FakeGenerator, Slot } from "../FakePlan.ts"
import { compactUpper } from "../masks.ts"
import { seededFaker } from "../locales.ts"
import { heldMix, type Held, orDefault } from "../mix.ts"

/**
 * Codes (`CUST-000123`, `A7-x93`, passport and licence numbers, account numbers): a template per layout, one slot per
 * position. A position whose character every row of the layout shares (≥ k rows) is kept (`CUST-`); the others are
 * redrawn from their class (digits, upper- or lower-case letters, hexadecimal digits).
 */
type TemplateGenerator = Extract<FakeGenerator, { _tag: "template" }>

const digits = "0123456789"
const upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
const lower = "abcdefghijklmnopqrstuvwxyz"
const hexLower = "0123456789abcdef"
const hexUpper = "0123456789ABCDEF"

type CharacterClass = "digit" | "upper" | "lower" | "hex" | "HEX" | "other"

const classOf = (character: string, hex: "hex" | "HEX" | null): CharacterClass => {
  if (hex === "hex" && /[0-9a-f]/.test(character)) return "hex"
  if (hex === "HEX" && /[0-9A-F]/.test(character)) return "HEX"
  if (/[0-9]/.test(character)) return "digit"
  if (/[A-Z]/.test(character)) return "upper"
  if (/[a-z]/.test(character)) return "lower"
  return "other"
}

const alphabetOf: Record<Exclude<CharacterClass, "other">, string> = { digit: digits, upper, lower, hex: hexLower, HEX: hexUpper }

/**
 * Whether the column's codes are hexadecimal: letters only a–f (or A–F), and digits beside them. Random-looking hex
 * (hashes, object ids) has a different digit/letter layout in every row, so position classes would learn nothing.
 */
const hexCase = (values: ReadonlyArray<string>): "hex" | "HEX" | null => {
  const joined = values.join("")
  if (!/[0-9]/.test(joined)) return null
  if (/^[0-9a-f\W_]*$/.test(joined) && /[a-f]/.test(joined)) return "hex"
  if (/^[0-9A-F\W_]*$/.test(joined) && /[A-F]/.test(joined)) return "HEX"
  return null
}

const layoutOf = (value: string, hex: "hex" | "HEX" | null) => {
  let layout = ""
  for (const character of value) {
    const kind = classOf(character, hex)
    layout += kind === "other" ? `=${character}` : `<${kind}>`
  }
  return layout
}

/**
 * The layouts held by ≥ k rows. When they cover too few rows (random tokens, each with its own letter/digit layout),
 * a coarser template: the most common length held by ≥ k rows, each position drawn from the classes the column uses.
 */
export const learnTemplate = (values: ReadonlyArray<string>, context: LearnContext, fallback: ReadonlyArray<Slot>): TemplateGenerator => {
  const hex = hexCase(values)
  const groups = new Map<string, Array<string>>()
  for (const value of values) {
    const layout = layoutOf(value, hex)
    const group = groups.get(layout)
    if (group === undefined) groups.set(layout, [value])
    else group.push(value)
  }
  const held = heldMix(values, (value) => layoutOf(value, hex), context.k)
  const coveredRows = [...groups.values()].filter((group) => group.length >= context.k).reduce((sum, group) => sum + group.length, 0)
  if (held.length > 0 && coveredRows * 2 >= values.length) {
    const shapes = held.map(({ value, rows }) => ({ value: slotsOf(groups.get(layoutOf(value, hex))!, hex), rows }))
    return { _tag: "template", shapes }
  }
  return { _tag: "template", shapes: orDefault(coarseShapes(values, context.k, hex), fallback) }
}

/** One slot per position: the character every member shares there, or its class's alphabet. */
const slotsOf = (members: ReadonlyArray<string>, hex: "hex" | "HEX" | null): Array<Slot> => {
  const characters = members.map((member) => [...member])
  return characters[0]!.map((first, position) => {
    const shared = characters.every((member) => member[position] === first)
    const kind = classOf(first, hex)
    return shared || kind === "other" ? { constant: first } : { alphabet: alphabetOf[kind] }
  })
}

const coarseShapes = (values: ReadonlyArray<string>, k: number, hex: "hex" | "HEX" | null): Array<Held<Array<Slot>>> => {
  const lengths = heldMix(values, (value) => String([...value].length), k)
  if (lengths.length === 0) return []
  // The classes of the column (and symbols that ≥ k rows use), drawn at every position.
  const classes = new Set<CharacterClass>()
  const symbolRows = new Map<string, number>()
  for (const value of values) {
    const symbols = new Set<string>()
    for (const character of value) {
      const kind = classOf(character, hex)
      if (kind === "other") symbols.add(character)
      else classes.add(kind)
    }
    for (const symbol of symbols) symbolRows.set(symbol, (symbolRows.get(symbol) ?? 0) + 1)
  }
  const symbols = [...symbolRows.entries()].filter(([, rows]) => rows >= k).map(([symbol]) => symbol).sort().join("")
  const alphabet = [...classes].sort().map((kind) => alphabetOf[kind as Exclude<CharacterClass, "other">]).join("") + symbols
  return lengths.map(({ value: length, rows }) => ({ value: Array.from({ length: Number(length) }, () => ({ alphabet: alphabet === "" ? digits : alphabet })), rows }))
}

/** A template from a mask (`MRN-#######`, `A########`): `#` a digit, `A`/`a` a letter, anything else kept. */
export const slotsOfMask = (mask: string): Array<Slot> =>
  [...mask].map((character) => (character === "#" ? { alphabet: digits } : character === "A" ? { alphabet: upper } : character === "a" ? { alphabet: lower } : { constant: character }))

const spaceOf = (slots: ReadonlyArray<Slot>) => slots.reduce((space, slot) => space * ("alphabet" in slot ? slot.alphabet.length : 1), 1)

/**
 * Makes room when a layout has fewer codes than the output needs (a `CUST-000123` column of 400 rows keeps `000`, and
 * 2,000 fresh codes do not fit in the last three digits): the kept digits nearest the end are redrawn, one at a time,
 * until the layout holds twice what is needed. Letters and symbols stay: they carry the code's meaning.
 */
const widened = (slots: ReadonlyArray<Slot>, needed: number): Array<Slot> | undefined => {
  const result = [...slots]
  for (let position = result.length - 1; spaceOf(result) < 2 * needed; position--) {
    if (position < 0) return undefined
    const slot = result[position]!
    if ("constant" in slot && /[0-9]/.test(slot.constant)) result[position] = { alphabet: digits }
  }
  return result
}

export const compileTemplate = (generator: TemplateGenerator, context: CompileContext): CandidateSource => {
  const total = generator.shapes.reduce((sum, shape) => sum + shape.rows, 0)
  const shapes = generator.shapes.map(({ value: slots, rows }) => {
    const share = Math.max(1, Math.ceil((context.needed * rows) / total))
    const fitted = context.unique ? widened(slots, share) : slots
    if (fitted === undefined) {
      throw fakeError(context.column, `its code format has only ${spaceOf(slots)} possible values, too few for ${share} distinct fresh ones; drop the column or keep it hashed instead`)
    }
    const parts = fitted.map((slot) => ("constant" in slot ? slot.constant : slot.alphabet))
    const variable = fitted.map((slot) => "alphabet" in slot)
    return {
      value: () => {
        let text = ""
        for (let index = 0; index < parts.length; index++) text += variable[index] ? context.draws.character(parts[index]!) : parts[index]!
        return text
      },
      rows
    }
  })
  const pick = context.draws.weighted(shapes)
  return () => {
    const text = pick()()
    return { text, key: compactUpper(text) }
  }
}

/** Case and separators do not make two codes different people's. */
export const templateKey = (value: string) => compactUpper(value)

// ---------------------------------------------------------------------------------------------------------------------

type IntegerKeyGenerator = Extract<FakeGenerator, { _tag: "integer_key" }>

const digitCount = (value: string) => value.replace(/^[-+]/, "").replace(/\.0*$/, "").replace(/^0+(?=\d)/, "").length

/**
 * Integer keys of the column's digit-count range, from the digit counts ≥ k rows have (a count is no one's value; a
 * lone 12-digit key among 3-digit ones does not widen the range).
 */
export const learnIntegerKey = (values: ReadonlyArray<string>, k: number): IntegerKeyGenerator => {
  const counts = heldMix(values.map(digitCount).filter((count) => count >= 1 && count <= 16), String, k).map((entry) => entry.value)
  if (counts.length === 0) return defaultIntegerKey
  return { _tag: "integer_key", minDigits: Math.min(...counts), maxDigits: Math.max(...counts) }
}

export const defaultIntegerKey: IntegerKeyGenerator = { _tag: "integer_key", minDigits: 1, maxDigits: 9 }

/**
 * Keys drawn uniformly between the smallest number of `minDigits` digits and the largest of `maxDigits`. When the
 * output needs more fresh keys than that range leaves (ids 1..400 and 2,000 rows), the range grows by a digit at a
 * time, up to 16 digits (safe integers).
 */
export const compileIntegerKey = (generator: IntegerKeyGenerator, context: CompileContext): CandidateSource => {
  const low = generator.minDigits === 1 ? 1 : 10 ** (generator.minDigits - 1)
  let maxDigits = generator.maxDigits
  if (context.unique) while (maxDigits < 16 && 10 ** maxDigits - low < 2 * context.needed) maxDigits++
  // Up to the largest safe integer: 16-digit keys stop at 9,007,199,254,740,991.
  const count = Math.min(10 ** maxDigits - 1, Number.MAX_SAFE_INTEGER) - low + 1
  if (context.unique && count < context.needed) {
    throw fakeError(context.column, `${context.needed} distinct integer keys do not fit in safe integers`)
  }
  return () => {
    const text = String(low + Math.floor(context.draws.unit() * count))
    return { text, key: text }
  }
}

export const integerKey = (value: string) => value.replace(/\D/g, "").replace(/^0+(?=\d)/, "")

// ---------------------------------------------------------------------------------------------------------------------

type UuidGenerator = Extract<FakeGenerator, { _tag: "uuid" }>

export const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const learnUuid = (values: ReadonlyArray<string>): UuidGenerator => {
  const upperRows = values.filter((value) => value === value.toUpperCase() && /[A-F]/.test(value)).length
  return { _tag: "uuid", upperCase: upperRows * 2 > values.length }
}

/** Version-4 UUIDs from the seeded draws (crypto.randomUUID cannot be seeded). */
export const compileUuid = (generator: UuidGenerator, context: CompileContext): CandidateSource => {
  const word = () => context.draws.random.uint32().toString(16).padStart(8, "0")
  return () => {
    const a = word()
    const b = word()
    const c = word()
    const d = word()
    const variant = "89ab"[context.draws.integer(0, 3)]!
    const lowerText = `${a}-${b.slice(0, 4)}-4${b.slice(5)}-${variant}${c.slice(1, 4)}-${c.slice(4)}${d}`
    return { text: generator.upperCase ? lowerText.toUpperCase() : lowerText, key: uuidKey(lowerText) }
  }
}

export const uuidKey = (value: string) => value.toLowerCase().replace(/[^0-9a-f]/g, "")

// ---------------------------------------------------------------------------------------------------------------------

type WordsGenerator = Extract<FakeGenerator, { _tag: "words" }>

const wordsOf = (value: string) => value.split(/\s+/).filter((word) => word !== "")

/**
 * Free-text-like values: as many words as the column's values have between the k-th fewest and the k-th most (no one
 * value's length shows), capitalised when most values are.
 */
export const learnWords = (values: ReadonlyArray<string>, k: number): WordsGenerator => {
  const counts = values.map((value) => wordsOf(value).length).sort((a, b) => a - b)
  const rank = Math.min(Math.max(1, k), counts.length) - 1
  const capitalisedRows = values.filter((value) => /^\p{Lu}/u.test(value)).length
  const low = Math.max(1, counts[rank] ?? 3)
  const high = Math.max(low, counts[counts.length - 1 - rank] ?? low)
  return { _tag: "words", minWords: low, maxWords: high, capitalised: capitalisedRows * 2 > values.length }
}

/** Several words separated by spaces: the sign of free text rather than a code. */
export const isWords = (value: string) => wordsOf(value).length >= 3

export const wordsKey = (value: string) => wordsOf(value.toLowerCase()).join(" ")

export const compileWords = (generator: WordsGenerator, context: CompileContext): CandidateSource => {
  const faker = seededFaker("en", context.draws.seed())
  return () => {
    const words = faker.lorem.words(context.draws.integer(generator.minWords, generator.maxWords))
    const text = generator.capitalised ? words.charAt(0).toUpperCase() + words.slice(1) : words
    return { text, key: wordsKey(text) }
  }
}
