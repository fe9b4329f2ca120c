import { lexiconLocales } from "./locales.ts"
import { wordSet } from "./words.ts"

const tokensOf = (names: ReadonlySet<string>) => new Set([...names].flatMap((name) => name.split(/[\s-]+/)).filter((word) => word.length > 1))

/** Given names of the covered locales (male, female and neutral lists). */
export const firstNames: ReadonlySet<string> = tokensOf(wordSet(lexiconLocales.map((locale) => locale.person?.first_name)))

/** Family names of the covered locales, split into words (`van der Berg` gives `berg`; particles are not names). */
export const lastNames: ReadonlySet<string> = tokensOf(wordSet(lexiconLocales.map((locale) => locale.person?.last_name)))

/** Words that join the parts of a family name (`van der Berg`, `da Silva`, `de la Cruz`): neutral, never the name itself. */
export const nameParticles: ReadonlySet<string> = new Set([
  "van", "von", "der", "den", "de", "del", "della", "di", "da", "das", "do", "dos", "du", "la", "le", "ten", "ter", "bin", "al", "el", "y", "zu"
])

/** Titles and generational suffixes that may stand around a name. */
export const nameTitles: ReadonlySet<string> = new Set([
  "mr", "mrs", "ms", "miss", "dr", "prof", "sir", "dame", "herr", "frau", "mme", "mlle", "m", "sr", "sra", "srta", "sig", "sigra",
  "dhr", "mevr", "jr", "ii", "iii", "iv"
])

export const isKnownNameWord = (word: string): boolean => firstNames.has(word) || lastNames.has(word)
