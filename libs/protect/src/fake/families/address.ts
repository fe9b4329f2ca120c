import type { Faker } from "@faker-js/faker"
import type { CandidateSource, CompileContext, LearnContext } from "../family.ts"
import type { AddressFormat, FakeGenerator, PostcodeFormat } from "../FakePlan.ts"
import { addressLocales, cityLocales, cityNameIndex, likeliestLocale, seededFaker, streetWordIndex } from "../locales.ts"
import { countBy, heldMix, orDefault } from "../mix.ts"

/**
 * Street addresses in the column's locale mix (its words looked up in faker's street definitions, and the glued
 * endings German and Dutch streets have), with the column's parts (street; city; postcode and state) and case.
 */
type AddressGenerator = Extract<FakeGenerator, { _tag: "street_address" }>
type PostcodeGenerator = Extract<FakeGenerator, { _tag: "uk_postcode" }>
type CityGenerator = Extract<FakeGenerator, { _tag: "city" }>

/** Street endings glued to the name, which faker's lists do not hold as separate words. */
const gluedEndings: ReadonlyArray<readonly [string, string]> = [
  ["straße", "de"], ["strasse", "de"], ["str.", "de"], ["gasse", "de"], ["platz", "de"], ["allee", "de"], ["damm", "de"],
  ["straat", "nl"], ["laan", "nl"], ["plein", "nl"], ["gracht", "nl"], ["kade", "nl"], ["dijk", "nl"]
]

const secondaryUnit = /\b(?:apt|apartment|suite|ste|unit|flat|zimmer|wohnung|app|appartement|piso|etage|esc|hoog|lote|andar)\b|#\s*\d/i

const localeOf = (street: string) => {
  const words = street.toLowerCase().split(/[\s,]+/).filter((word) => word.length > 1 && !/\d/.test(word))
  const glued = words.flatMap((word) => gluedEndings.filter(([ending]) => word.length > ending.length + 2 && word.endsWith(ending)).map(([, locale]) => locale))
  if (glued.length > 0) return glued[0]
  return likeliestLocale(words, streetWordIndex(), addressLocales)
}

export const learnAddress = (values: ReadonlyArray<string>, context: LearnContext): AddressGenerator => {
  const formats = values.map((value): AddressFormat => {
    const parts = value.split(",").map((part) => part.trim()).filter((part) => part !== "")
    const street = parts[0] ?? value
    return {
      locale: localeOf(street) ?? "",
      parts: Math.min(3, Math.max(1, parts.length)) as 1 | 2 | 3,
      secondary: secondaryUnit.test(value),
      upperCase: value === value.toUpperCase() && value !== value.toLowerCase()
    }
  })
  // Rows whose locale was not found take the most common one found.
  const localeMix = heldMix(formats.filter((format) => format.locale !== "").map((format) => format.locale), (locale) => locale, context.k)
  const fallbackLocale = localeMix[0]?.value ?? "en"
  const held = new Set(localeMix.map((entry) => entry.value))
  const located = formats.map((format) => (held.has(format.locale) ? format : { ...format, locale: fallbackLocale }))
  return {
    _tag: "street_address",
    formats: orDefault(heldMix(located, (format) => `${format.locale}|${format.parts}|${format.secondary}|${format.upperCase}`, context.k), defaultFormat)
  }
}

const defaultFormat: AddressFormat = { locale: "en", parts: 1, secondary: false, upperCase: false }

export const defaultAddress: AddressGenerator = { _tag: "street_address", formats: [{ value: defaultFormat, rows: 1 }] }

/** The parts after the street in the locale's order: `City, ST 12345` in English, `12345 City` elsewhere. */
const writeAddress = (faker: Faker, format: AddressFormat, english: boolean) => {
  const street = faker.location.streetAddress(format.secondary)
  if (format.parts === 1) return street
  const city = faker.location.city()
  if (format.parts === 2) return `${street}, ${city}`
  return english ? `${street}, ${city}, ${faker.location.state({ abbreviated: true })} ${faker.location.zipCode()}` : `${street}, ${faker.location.zipCode()} ${city}`
}

export const compileAddress = (generator: AddressGenerator, context: CompileContext): CandidateSource => {
  const fakers = new Map(generator.formats.map(({ value }) => [value.locale, seededFaker(value.locale, context.draws.seed())]))
  const pick = context.draws.weighted(generator.formats)
  return () => {
    const format = pick()
    const written = writeAddress(fakers.get(format.locale)!, format, format.locale.startsWith("en"))
    const text = format.upperCase ? written.toUpperCase() : written
    return { text, key: addressKey(text) }
  }
}

/** Case, punctuation and spacing do not make another address. */
export const addressKey = (value: string) =>
  value
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "")
    .join(" ")

// ---------------------------------------------------------------------------------------------------------------------

const ukPostcode = /^([A-Za-z]{1,2})(\d[A-Za-z\d]?)\s*(\d[A-Za-z]{2})$/

/** UK postcodes: the postcode area (`SW`, `M`) when ≥ k rows share it, spaced or not, in the column's case. */
export const learnPostcode = (values: ReadonlyArray<string>, context: LearnContext): PostcodeGenerator => {
  const parsed = values.map((value) => ({ value: value.trim(), match: ukPostcode.exec(value.trim()) })).filter(({ match }) => match !== null)
  const areaRows = countBy(parsed, ({ match }) => match![1]!.toUpperCase())
  const formats = parsed.map(({ value, match }): PostcodeFormat => {
    const area = match![1]!.toUpperCase()
    return { area: (areaRows.get(area) ?? 0) >= context.k ? area : "", spaced: /\s/.test(value), upperCase: value !== value.toLowerCase() }
  })
  return { _tag: "uk_postcode", formats: orDefault(heldMix(formats, (format) => `${format.area}|${format.spaced}|${format.upperCase}`, context.k), defaultPostcodeFormat) }
}

const defaultPostcodeFormat: PostcodeFormat = { area: "", spaced: true, upperCase: true }

export const defaultPostcode: PostcodeGenerator = { _tag: "uk_postcode", formats: [{ value: defaultPostcodeFormat, rows: 1 }] }

export const compilePostcode = (generator: PostcodeGenerator, context: CompileContext): CandidateSource => {
  const faker = seededFaker("en_GB", context.draws.seed())
  const pick = context.draws.weighted(generator.formats)
  return () => {
    const format = pick()
    const match = ukPostcode.exec(faker.location.zipCode())!
    const area = format.area !== "" ? format.area : match[1]!
    const written = `${area}${match[2]}${format.spaced ? " " : ""}${match[3]}`
    const text = format.upperCase ? written.toUpperCase() : written.toLowerCase()
    return { text, key: text.replace(/\s/g, "").toUpperCase() }
  }
}

export const postcodeKey = (value: string) => value.replace(/\s/g, "").toUpperCase()

/**
 * Cities (a column faked on request: the default for a city is to learn it): names from faker's city lists and
 * patterns in the locales the real names come from (a name's locale: the locales whose list holds it whole), held by
 * ≥ k rows; English otherwise.
 */
export const learnCity = (values: ReadonlyArray<string>, context: LearnContext): CityGenerator => {
  const formats = values.map((value) => ({
    locale: likeliestLocale([value], cityNameIndex(), cityLocales) ?? "",
    upperCase: value === value.toUpperCase() && value !== value.toLowerCase()
  }))
  const localeMix = heldMix(formats.filter((format) => format.locale !== "").map((format) => format.locale), (locale) => locale, context.k)
  const fallbackLocale = localeMix[0]?.value ?? "en"
  const held = new Set(localeMix.map((entry) => entry.value))
  const located = formats.map((format) => (held.has(format.locale) ? format : { ...format, locale: fallbackLocale }))
  return { _tag: "city", formats: orDefault(heldMix(located, (format) => `${format.locale}|${format.upperCase}`, context.k), defaultCityFormat) }
}

const defaultCityFormat = { locale: "en", upperCase: false }

export const defaultCity: CityGenerator = { _tag: "city", formats: [{ value: defaultCityFormat, rows: 1 }] }

export const compileCity = (generator: CityGenerator, context: CompileContext): CandidateSource => {
  const fakers = new Map(generator.formats.map(({ value }) => [value.locale, seededFaker(value.locale, context.draws.seed())]))
  const pick = context.draws.weighted(generator.formats)
  return () => {
    const format = pick()
    const city = fakers.get(format.locale)!.location.city()
    const text = format.upperCase ? city.toUpperCase() : city
    return { text, key: cityKey(text) }
  }
}

/** Case and spacing do not make another city. */
export const cityKey = (value: string) => value.toLocaleLowerCase("en").split(/\s+/).filter((word) => word !== "").join(" ")
