import { lexiconLocales } from "./locales.ts"
import { wordSet } from "./words.ts"

/**
 * Words that name things, not people or places: colours, product adjectives, materials and nouns, shop
 * departments, company legal forms and buzzwords, and the ordinary words of faker's word lists (English, German,
 * French, Portuguese). A value made of them is a product, a company, a colour or a category.
 */
export const thingWords: ReadonlySet<string> = new Set([
  ...wordSet(
    lexiconLocales.flatMap((locale) => [
      locale.color?.human,
      locale.commerce?.product_name,
      locale.commerce?.department,
      locale.company?.legal_entity_type,
      locale.company?.buzz_adjective,
      locale.company?.buzz_noun,
      locale.company?.adjective,
      locale.company?.descriptor,
      locale.company?.noun,
      locale.word?.adjective,
      locale.word?.noun,
      locale.word?.adverb,
      locale.word?.verb,
      locale.word?.preposition,
      locale.word?.conjunction
    ])
  ).values()
].flatMap((phrase) => phrase.split(/\s+/)).filter((word) => word.length > 1))

/** Words that join the names of a firm (`Kuhn, Schmidt and Bauch`, `Schulz & Partner`): a company, not a person. */
export const companyConnectors: ReadonlySet<string> = new Set(["and", "und", "et", "&", "+", "en", "inc", "llc", "ltd", "gmbh", "corp", "co", "plc", "sa", "ag", "bv", "nv", "srl", "spa", "sl", "lda", "ltda", "kg"])
