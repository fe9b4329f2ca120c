import { de, en, en_GB, es, fr, it, type LocaleDefinition, nl, pt_BR, pt_PT } from "@faker-js/faker"

/**
 * faker's locale data for the languages the column-name vocabulary covers (English with British place names, German, French, Spanish, Italian,
 * Dutch, Portuguese): lists of first and last names, real city names, place-name prefixes and suffixes, colours,
 * product and company words, countries and states. Only the data is used, never a faker instance.
 */
export const lexiconLocales: ReadonlyArray<LocaleDefinition> = [en, en_GB, de, fr, es, it, nl, pt_BR, pt_PT]
