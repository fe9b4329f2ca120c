import { type Faker, fakerDE, fakerEN_GB, fakerEN_US, fakerES, fakerFR, fakerIT, fakerNL, fakerPT_BR } from "@faker-js/faker"
import { describe, expect, it } from "vitest"
import { readValue, valuesAreCities, valuesAreNames, vocabularyProfile } from "./valueVocabulary.ts"

const locales: ReadonlyArray<readonly [string, Faker]> = [
  ["en_US", fakerEN_US], ["en_GB", fakerEN_GB], ["de", fakerDE], ["fr", fakerFR], ["es", fakerES], ["it", fakerIT], ["nl", fakerNL], ["pt_BR", fakerPT_BR]
]

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** 150 values of a kind in a locale, faker seeded per locale and kind: the same columns on every run. */
const column = (faker: Faker, seed: number, make: (faker: Faker) => string) => {
  faker.seed(seed)
  return Array.from({ length: 150 }, () => make(faker))
}

describe("readValue", () => {
  it.each([
    ["Ada Lovelace", "person"],
    ["Dr. Ada Lovelace", "person"],
    ["ADA LOVELACE", "person"],
    ["Lovelace, Ada", "person"],
    ["J. Smith", "person"],
    ["Maria da Silva", "person"],
    ["Jan van der Berg", "person"],
    ["García López", "person"],
    ["Springfield", "place"],
    ["Toulouse", "place"],
    ["St. Louis", "place"],
    ["North Amelieport", "place"],
    ["Melissaboro", "place"],
    ["Bad Homburg", "place"],
    ["Victoria", "ambiguous"],
    ["Green", "ambiguous"],
    ["California", "region"],
    ["Germany", "region"],
    ["Gorgeous Granite Chair", "thing"],
    ["Kuhn, Schmidt and Bauch", "thing"],
    ["Hilpert LLC", "thing"],
    ["Electronics", "thing"],
    ["Very Good", "thing"],
    ["Red", "thing"],
    ["ada lovelace", "other"],
    ["ORD-12345", "other"],
    ["40.7128", "other"]
  ] as const)("%s reads as %s", (value, reading) => {
    expect(readValue(value)).toBe(reading)
  })
})

describe("vocabularyProfile", () => {
  it.each(locales)("full, given and family names of %s read as names, not cities", (_, faker) => {
    for (const make of [(f: Faker) => f.person.fullName(), (f: Faker) => f.person.firstName(), (f: Faker) => f.person.lastName()]) {
      const profile = vocabularyProfile(column(faker, 11, make))
      expect(valuesAreNames(profile), JSON.stringify(profile)).toBe(true)
      expect(valuesAreCities(profile)).toBe(false)
    }
  })

  it.each(locales.filter(([code]) => !["en_GB", "nl"].includes(code)))("cities of %s read as cities, not names", (_, faker) => {
    const profile = vocabularyProfile(column(faker, 12, (f) => f.location.city()))
    expect(valuesAreCities(profile), JSON.stringify(profile)).toBe(true)
    expect(valuesAreNames(profile)).toBe(false)
  })

  it.each(locales)("products, companies, colours, categories, countries, states and job titles of %s are neither", (_, faker) => {
    const kinds: ReadonlyArray<(f: Faker) => string> = [
      (f) => f.commerce.productName(),
      (f) => f.company.name(),
      (f) => f.color.human(),
      (f) => capitalise(f.color.human()),
      (f) => f.commerce.department(),
      (f) => f.location.country(),
      (f) => f.location.state(),
      (f) => f.person.jobTitle()
    ]
    kinds.forEach((make, index) => {
      const profile = vocabularyProfile(column(faker, 13 + index, make))
      expect(valuesAreNames(profile), `kind ${index}: ${JSON.stringify(profile)}`).toBe(false)
      expect(valuesAreCities(profile), `kind ${index}: ${JSON.stringify(profile)}`).toBe(false)
    })
  })

  it("reads the categories of the sample datasets as neither (diamonds' cut, penguins' species and island)", () => {
    for (const values of [
      ["Ideal", "Premium", "Good", "Very Good", "Fair", "Ideal", "Premium"],
      ["Adelie", "Gentoo", "Chinstrap", "Adelie", "Adelie", "Gentoo"],
      ["Biscoe", "Dream", "Torgersen", "Biscoe", "Dream"],
      ["Male", "Female", "Female", "Male"],
      ["Month-to-month", "One year", "Two year"],
      ["Electronic check", "Mailed check", "Bank transfer (automatic)", "Credit card (automatic)"]
    ]) {
      const profile = vocabularyProfile(values)
      expect(valuesAreNames(profile), values.join()).toBe(false)
      expect(valuesAreCities(profile), values.join()).toBe(false)
    }
  })
})
