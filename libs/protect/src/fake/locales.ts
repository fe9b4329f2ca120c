import { allLocales, Faker, type LocaleDefinition } from "@faker-js/faker"
import { asciiFold } from "./masks.ts"

/**
 * faker's locales as the fakers see them: which locale a real name (or an e-mail's name parts, a street) comes from,
 * found by looking its words up in each locale's own definitions, and a seeded Faker for a locale.
 */

/** Joke and empty locales are never a real column's locale. */
const excluded = new Set(["base", "en_AU_ocker", "en_BORK"])

const definitionsOf = (code: string): LocaleDefinition | undefined => (allLocales as Record<string, LocaleDefinition>)[code]

/** The words of a definition entry: a list, or lists by sex (`{ female, male, generic }`). */
export const lists = (entry: unknown): ReadonlyArray<string> =>
  entry === undefined || entry === null ? [] : Array.isArray(entry) ? entry : Object.values(entry as Record<string, ReadonlyArray<string>>).flat()

/** A word as it is looked up: lower case, accents kept (Müller and Muller are different names). */
export const lookupForm = (word: string) => (/^[A-Za-z]*$/.test(word) ? word.toLowerCase() : word.normalize("NFC").toLocaleLowerCase("en"))

/**
 * Locales in the order ties are broken: English first (the most common locale of uploaded data), then languages,
 * then regional variants, whose word lists mostly repeat their language's.
 */
const localeOrder = (codes: ReadonlyArray<string>) =>
  [...codes].sort((a, b) => {
    const rank = (code: string) => (code === "en" ? 0 : code.includes("_") ? 2 : 1)
    return rank(a) - rank(b) || a.localeCompare(b)
  })

/** Locales with their own first and last names. */
export const nameLocales: ReadonlyArray<string> = localeOrder(
  Object.keys(allLocales).filter((code) => {
    const person = definitionsOf(code)?.person
    return !excluded.has(code) && lists(person?.first_name).length > 0 && lists(person?.last_name).length > 0
  })
)

/** Locales with their own street definitions. */
export const addressLocales: ReadonlyArray<string> = localeOrder(
  Object.keys(allLocales).filter((code) => !excluded.has(code) && definitionsOf(code)?.location?.street_pattern !== undefined)
)

/** Which locales list each word, built on first use (~100,000 words, a few tens of milliseconds). */
export interface WordIndex {
  readonly localesOf: (word: string) => ReadonlyArray<string> | undefined
  /** How the index writes a word before looking it up. */
  readonly form: (word: string) => string
  readonly entries: () => IterableIterator<[string, ReadonlyArray<string>]>
}

const buildIndex = (
  locales: ReadonlyArray<string>,
  wordsOf: (definition: LocaleDefinition) => ReadonlyArray<string>,
  form: (word: string) => string = lookupForm
): WordIndex => {
  const index = new Map<string, Array<string>>()
  for (const code of locales) {
    for (const word of wordsOf(definitionsOf(code)!)) {
      const key = form(word)
      if (key === "") continue
      const owners = index.get(key)
      if (owners === undefined) index.set(key, [code])
      else if (owners[owners.length - 1] !== code) owners.push(code)
    }
  }
  return { localesOf: (word) => index.get(form(word)), form, entries: () => index.entries() }
}

const lazily = <A>(make: () => A) => {
  let value: A | undefined
  return () => (value ??= make())
}

const firstNames = (definition: LocaleDefinition) => lists(definition.person?.first_name)
const lastNames = (definition: LocaleDefinition) => lists(definition.person?.last_name)

/** Words listed by either index, with the locales of both (each once), merged once. */
const unionIndex = (a: WordIndex, b: WordIndex): WordIndex => {
  const merged = new Map<string, ReadonlyArray<string>>(a.entries())
  for (const [word, owners] of b.entries()) {
    const known = merged.get(word)
    merged.set(word, known === undefined ? owners : [...new Set([...known, ...owners])])
  }
  return { localesOf: (word) => merged.get(a.form(word)), form: a.form, entries: () => merged.entries() }
}

export const firstNameIndex = lazily(() => buildIndex(nameLocales, firstNames))
export const lastNameIndex = lazily(() => buildIndex(nameLocales, lastNames))
export const anyNameIndex = lazily(() => unionIndex(firstNameIndex(), lastNameIndex()))
/** The same lists as e-mail addresses and usernames write names: ASCII, lower case (`muller` for Müller). */
export const foldedFirstNameIndex = lazily(() => buildIndex(nameLocales, firstNames, asciiFold))
export const foldedLastNameIndex = lazily(() => buildIndex(nameLocales, lastNames, asciiFold))
export const foldedAnyNameIndex = lazily(() => unionIndex(foldedFirstNameIndex(), foldedLastNameIndex()))
export const streetWordIndex = lazily(() =>
  buildIndex(addressLocales, (definition) => {
    const location = definition.location
    const words = [...lists(location?.street_suffix), ...lists(location?.street_prefix), ...lists(location?.street_name)]
    return words.flatMap((phrase) => phrase.split(/[\s-]+/)).filter((word) => word.length > 1)
  })
)
/** Locales with their own city names. */
export const cityLocales: ReadonlyArray<string> = localeOrder(
  Object.keys(allLocales).filter((code) => !excluded.has(code) && lists(definitionsOf(code)?.location?.city_name).length > 0)
)
/** Whole city names (not words): `Frankfurt am Main` is one entry. */
export const cityNameIndex = lazily(() => buildIndex(cityLocales, (definition) => lists(definition.location?.city_name)))
/**
 * The locale a value's words most likely come from: each word votes for the locales that list it, a word listed by
 * many locales (Anna, Martin) with a small vote, one listed by a single locale (Müller) with a whole one; ties go to
 * the earlier locale. Undefined when no word is listed anywhere.
 */
export const likeliestLocale = (words: ReadonlyArray<string>, index: WordIndex, order: ReadonlyArray<string>): string | undefined => {
  const scores = new Map<string, number>()
  for (const word of words) {
    const owners = index.localesOf(word)
    if (owners === undefined) continue
    for (const owner of owners) scores.set(owner, (scores.get(owner) ?? 0) + 1 / owners.length)
  }
  let best: string | undefined
  let bestScore = 0
  let bestRank = Infinity
  for (const [code, score] of scores) {
    const rank = rankIn(order, code)
    if (score > bestScore + 1e-9 || (Math.abs(score - bestScore) <= 1e-9 && rank < bestRank)) {
      best = code
      bestScore = score
      bestRank = rank
    }
  }
  return best
}

const ranks = new WeakMap<ReadonlyArray<string>, Map<string, number>>()
const rankIn = (order: ReadonlyArray<string>, code: string) => {
  let rank = ranks.get(order)
  if (rank === undefined) {
    rank = new Map(order.map((entry, index) => [entry, index]))
    ranks.set(order, rank)
  }
  return rank.get(code) ?? Infinity
}

/**
 * A Faker for one locale, falling back to its language and then to English for what the locale does not define,
 * seeded: the same seed gives the same values.
 */
export const seededFaker = (code: string, seed: number): Faker => {
  const own = definitionsOf(code) ?? allLocales.en
  const language = code.split("_")[0]!
  const chain = [own, ...(language !== code && definitionsOf(language) !== undefined ? [definitionsOf(language)!] : []), allLocales.en, allLocales.base]
  const faker = new Faker({ locale: chain })
  faker.seed(seed)
  return faker
}

/** A locale's name lists, by sex where the locale's names differ by sex (Russian, Polish, Czech last names). */
export interface NameLists {
  readonly gendered: boolean
  readonly first: (sex: "female" | "male" | undefined) => ReadonlyArray<string>
  readonly last: (sex: "female" | "male" | undefined) => ReadonlyArray<string>
  readonly prefix: (sex: "female" | "male" | undefined) => ReadonlyArray<string>
  readonly suffix: ReadonlyArray<string>
}

type BySex = { readonly generic?: ReadonlyArray<string>; readonly female?: ReadonlyArray<string>; readonly male?: ReadonlyArray<string> } | ReadonlyArray<string> | undefined | null

const bySex = (entry: BySex) => {
  if (entry === undefined || entry === null) return () => [] as ReadonlyArray<string>
  if (Array.isArray(entry)) return () => entry as ReadonlyArray<string>
  const sexed = entry as Exclude<BySex, ReadonlyArray<string> | undefined | null>
  const all = sexed.generic ?? [...(sexed.female ?? []), ...(sexed.male ?? [])]
  return (sex: "female" | "male" | undefined) => (sex !== undefined ? (sexed[sex] ?? all) : all)
}

const nameListCache = new Map<string, NameLists>()

/**
 * faker's name lists for a locale (its own, else its language's, else English), read once. Drawn from directly with
 * the seeded draws: faker's `person.lastName()` expands a pattern template on every call (~2 µs), which a million
 * names cannot afford.
 */
export const nameLists = (code: string): NameLists => {
  const cached = nameListCache.get(code)
  if (cached !== undefined) return cached
  const person = seededFaker(code, 0).definitions.person
  const lastNames = person.last_name as BySex
  const lists: NameLists = {
    gendered: lastNames !== undefined && lastNames !== null && !Array.isArray(lastNames) && "female" in lastNames && "male" in lastNames,
    first: bySex(person.first_name as BySex),
    last: bySex(lastNames),
    prefix: bySex(person.prefix as BySex),
    suffix: bySex(person.suffix as BySex)(undefined)
  }
  nameListCache.set(code, lists)
  return lists
}

let englishWordList: ReadonlyArray<string> | undefined
/** faker's English nouns and adjectives, for handles and URL words that are not names. */
export const englishWords = (): ReadonlyArray<string> =>
  (englishWordList ??= [...(allLocales.en.word?.noun ?? []), ...(allLocales.en.word?.adjective ?? [])].filter((word) => /^[a-z]+$/.test(word)))
