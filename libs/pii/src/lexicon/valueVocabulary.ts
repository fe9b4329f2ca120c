import { firstNames, lastNames, nameParticles, nameTitles } from "./personNames.ts"
import { cityNames, gluedPlaceSuffixes, placePrefixes, regionNames, trailingPlacePhrases } from "./placeNames.ts"
import { companyConnectors, thingWords } from "./thingWords.ts"
import { normaliseWord } from "./words.ts"

/**
 * What a short text value reads as, by the words it is made of:
 * - `person`: a given name, a family name, or a given name followed by more names (`Ada`, `Lovelace`,
 *   `Ada King Lovelace`, `Lovelace, Ada`, `J. Smith`);
 * - `place`: a city of the gazetteer or a place-name shape (`North Amelieport`, `Neu Joscha`, `Melissaboro`);
 * - `region`: a country or state; `thing`: colours, products, companies, categories, ordinary words;
 * - `ambiguous`: both a name and a city or a word (`Victoria`, `Jackson`, `Rose`, `Green`);
 * - `other`: anything else (numbers, codes, lower-case text, unknown words).
 */
export type ValueReading = "person" | "place" | "region" | "thing" | "ambiguous" | "other"

const maxWords = 6
const wordShape = /^[\p{L}][\p{L}'’.-]*$/u
const initial = /^\p{Lu}\.?$/u

const capitalised = (word: string) => /^\p{Lu}/u.test(word)

interface Word {
  readonly text: string
  readonly key: string
}

const wordsOf = (value: string): ReadonlyArray<Word> | undefined => {
  if (value.length > 60 || /[\d@#/\\:;()[\]{}<>=_|*%$€£!?"]/.test(value)) return undefined
  const texts = value.split(/\s+/).filter((text) => text !== "")
  if (texts.length === 0 || texts.length > maxWords) return undefined
  return texts.map((text) => ({ text, key: normaliseWord(text.replace(/[.,]+$/, "")) }))
}

const isName = (key: string) => firstNames.has(key) || lastNames.has(key)

/** A value's words as a person's name: titles and particles aside, the first is a given name (or an initial). */
const personReading = (words: ReadonlyArray<Word>, value: string): boolean => {
  const upper = value === value.toUpperCase()
  const core = words.filter((word) => !nameTitles.has(word.key))
  const named = core.filter((word) => !nameParticles.has(word.key))
  if (named.length === 0 || named.length > 4) return false
  if (!named.every((word) => upper || capitalised(word.text) || word.text.includes("-"))) return false
  if (named.some((word) => !wordShape.test(word.text.replace(/,$/, "")))) return false
  if (named.length === 1) return isName(named[0]!.key)
  const comma = value.indexOf(",")
  if (comma >= 0) {
    // "Lovelace, Ada": a family name, then given names.
    if (value.indexOf(",", comma + 1) >= 0) return false
    const after = value.slice(comma + 1).trim().split(/\s+/)[0] ?? ""
    return firstNames.has(normaliseWord(after.replace(/\.$/, ""))) || initial.test(after)
  }
  const first = named[0]!
  const givenFirst = firstNames.has(first.key) || initial.test(first.text)
  // `García y López`, `Silva e Souza` without a given name are firms (faker's Spanish and Portuguese companies).
  if (!givenFirst && words.some((word) => word.key === "y" || word.key === "e")) return false
  // Double family names (`García López`): every word a known name.
  if (named.every((word) => isName(word.key))) return true
  if (!givenFirst) return false
  // An unknown family name is accepted after a known given name (`Ada Okonkwo`), unless it is an ordinary word.
  const last = named[named.length - 1]!
  return !thingWords.has(last.key)
}

/** `North Amelieport`, `Bad Homburg`, `San Quirico`, `Silva do Sul`, `Katwijk aan de Rijn`, `Tarsilla terme`. */
const placePhrase = (words: ReadonlyArray<Word>, value: string): boolean => {
  if (words.length < 2 || !capitalised(value)) return false
  if (placePrefixes.has(words[0]!.key) && capitalised(words[1]!.text)) return true
  const lower = normaliseWord(value)
  return trailingPlacePhrases.some((phrase) => lower.endsWith(phrase))
}

/** One word ending like a place (`Melissaboro`, `Landentown`, `Mewesstadt`, `Brigdamme`). */
const placeWord = (words: ReadonlyArray<Word>, value: string): boolean => {
  if (words.length !== 1 || !capitalised(value)) return false
  const word = words[0]!.key
  return gluedPlaceSuffixes.some((suffix) => word.length >= suffix.length + 3 && word.endsWith(suffix))
}

/** How one value reads (see ValueReading). Cheap: a few set look-ups per word. */
export const readValue = (raw: string): ValueReading => {
  const value = raw.trim()
  const words = wordsOf(value)
  if (words === undefined || !/^\p{L}/u.test(value)) return "other"
  const whole = normaliseWord(value)
  if (words.some((word) => companyConnectors.has(word.key)) && words.length >= 2) return "thing"
  const person = personReading(words, value)
  const nameWords = words.filter((word) => !nameParticles.has(word.key) && !nameTitles.has(word.key))
  const wordlike = nameWords.length > 0 && nameWords.every((word) => thingWords.has(word.key))
  if (cityNames.has(whole)) return person || wordlike ? "ambiguous" : "place"
  if (regionNames.has(whole)) return person ? "ambiguous" : "region"
  if (placePhrase(words, value)) return "place"
  if (person) return wordlike || placeWord(words, value) ? "ambiguous" : "person"
  if (placeWord(words, value)) return "place"
  if (words.some((word) => thingWords.has(word.key))) return "thing"
  return "other"
}

/** Shares of a column's values by reading, and how many distinct values read as a person or a place. */
export interface VocabularyProfile {
  readonly values: number
  readonly person: number
  readonly place: number
  readonly region: number
  readonly thing: number
  readonly ambiguous: number
  readonly distinctPersons: number
  readonly distinctPlaces: number
}

export const vocabularyProfile = (values: ReadonlyArray<string>): VocabularyProfile => {
  const counts = { person: 0, place: 0, region: 0, thing: 0, ambiguous: 0, other: 0 }
  const persons = new Set<string>()
  const places = new Set<string>()
  const memo = new Map<string, ValueReading>()
  for (const value of values) {
    let reading = memo.get(value)
    if (reading === undefined) {
      reading = readValue(value)
      memo.set(value, reading)
    }
    counts[reading]++
    if (reading === "person") persons.add(value)
    if (reading === "place") places.add(value)
  }
  const share = (count: number) => (values.length === 0 ? 0 : count / values.length)
  return {
    values: values.length,
    person: share(counts.person),
    place: share(counts.place),
    region: share(counts.region),
    thing: share(counts.thing),
    ambiguous: share(counts.ambiguous),
    distinctPersons: persons.size,
    distinctPlaces: places.size
  }
}

/** The values alone say person names: most read as names, hardly any as places or things, several different. */
export const valuesAreNames = (profile: VocabularyProfile): boolean =>
  profile.person >= 0.6 && profile.person + profile.ambiguous >= 0.8 && profile.place + profile.region <= 0.1 &&
  profile.thing <= 0.1 && profile.distinctPersons >= 3

/** The values alone say cities: most read as places, hardly any as names, countries or things, several different. */
export const valuesAreCities = (profile: VocabularyProfile): boolean =>
  profile.place >= 0.6 && profile.place + profile.ambiguous >= 0.8 && profile.person <= 0.15 &&
  profile.region <= 0.1 && profile.thing <= 0.1 && profile.distinctPlaces >= 3

/** Values that look like names enough to back a weak hint (`employee`, `who`, bare `first`). */
export const valuesLookLikeNames = (profile: VocabularyProfile): boolean =>
  profile.person >= 0.5 && profile.person > 2 * (profile.place + profile.region) && profile.thing <= 0.2

/** Values that look like places enough to back a neighbour's hint (next to a ZIP code or a country). */
export const valuesLookLikePlaces = (profile: VocabularyProfile): boolean =>
  profile.place >= 0.2 && profile.place >= profile.person && profile.thing <= 0.3 && profile.region <= 0.2
