/**
 * Test helper: the customer table of issue 21 (names, e-mails, SSNs, ages, incomes, ZIP codes, cities, birth dates,
 * a Yes/No column) as SynthTables drawn from one seeded population, and what generators made of it. Population
 * draws stand in for a generator that learned the population and no row of it.
 */
import type { GeneratorColumn } from "../../columns/evaluatedColumns.ts"
import { makeRandom, type Random, type SynthColumn, type SynthTable } from "@synth/synth"

const firstNames = ["Ann", "Bob", "Carla", "Dev", "Eva", "Femi", "Gus", "Hana", "Ivan", "Jo", "Kai", "Lena", "Mo", "Nia", "Otto"]
const lastNames = ["Smith", "Jones", "Garcia", "Okafor", "Nguyen", "Kowalski", "Rossi", "Haddad", "Larsen", "Tanaka"]
const cities = ["Springfield", "Riverton", "Lakeside", "Hillview"]
const cityWeights = [0.4, 0.3, 0.2, 0.1]
const zips = [10001, 10002, 10003, 10004, 10005, 10006, 10007, 10008, 10009, 10010, 10011, 10012]
/** 1 January 1950 in days since the epoch; birth dates span 50 years after it. */
const firstBirthDay = -7305

export interface Person {
  readonly name: string
  readonly email: string
  readonly ssn: string
  readonly age: number
  readonly income: number
  readonly zip: number
  readonly city: string
  readonly born: number
  readonly subscribed: string
}

const pick = <A>(random: Random, values: ReadonlyArray<A>, weights?: ReadonlyArray<number>): A => {
  if (weights === undefined) return values[random.integer(values.length)]!
  let draw = random.next()
  for (let i = 0; i < values.length; i++) {
    draw -= weights[i]!
    if (draw < 0) return values[i]!
  }
  return values[values.length - 1]!
}

/** `count` people numbered from `firstId` (the number keeps e-mails and SSNs of different draws apart). */
export const people = (count: number, seed: number, firstId: number): ReadonlyArray<Person> => {
  const random = makeRandom(seed)
  return Array.from({ length: count }, (_, index) => {
    const id = firstId + index
    const first = pick(random, firstNames), last = pick(random, lastNames)
    const zip = pick(random, zips)
    const age = 18 + random.integer(62)
    return {
      name: `${first} ${last}`,
      email: `${first}.${last}.${id}@example.org`.toLowerCase(),
      ssn: `${100 + (id % 600)}-${String(10 + (id % 89)).padStart(2, "0")}-${String(1000 + id).padStart(4, "0")}`,
      age,
      income: Math.round(Math.exp(10.5 + 0.5 * random.normal()) * 100) / 100,
      zip,
      city: pick(random, cities, cityWeights),
      born: firstBirthDay + random.integer(50 * 365),
      // Subscribers cluster in one ZIP code: the CAP attack has something real to learn from the keys.
      subscribed: random.next() < (zip === 10001 ? 0.7 : 0.3) ? "Yes" : "No"
    }
  })
}

const categorical = (name: string, values: ReadonlyArray<string>): SynthColumn => {
  const categories = [...new Set(values)].sort()
  const index = new Map(categories.map((category, i) => [category, i]))
  return { kind: "categorical", name, type: "string", categories, codes: Int32Array.from(values, (value) => index.get(value)!) }
}

const continuous = (name: string, type: "integer" | "float" | "date", values: ReadonlyArray<number>): SynthColumn =>
  ({ kind: "continuous", name, type, values: Float64Array.from(values), missing: null, sourceFormat: null })

/** People as a table; `without` leaves columns out (a generator's dropped ones). */
export const customerTable = (rows: ReadonlyArray<Person>, without: ReadonlyArray<string> = []): SynthTable => ({
  rowCount: rows.length,
  columns: [
    categorical("name", rows.map(({ name }) => name)),
    categorical("email", rows.map(({ email }) => email)),
    categorical("ssn", rows.map(({ ssn }) => ssn)),
    continuous("age", "integer", rows.map(({ age }) => age)),
    continuous("income", "float", rows.map(({ income }) => income)),
    continuous("zip", "integer", rows.map(({ zip }) => zip)),
    categorical("city", rows.map(({ city }) => city)),
    continuous("born", "date", rows.map(({ born }) => born)),
    categorical("subscribed", rows.map(({ subscribed }) => subscribed))
  ].filter(({ name }) => !without.includes(name))
})

/** The roles the basic scan gives these columns, with the default handlings (direct identifiers faked). */
export const customerColumns: ReadonlyArray<GeneratorColumn> = [
  { name: "name", role: "direct_identifier", handling: "fake", piiType: "person_name" },
  { name: "email", role: "direct_identifier", handling: "fake", piiType: "email_address" },
  { name: "ssn", role: "direct_identifier", handling: "fake", piiType: "social_security_number" },
  { name: "age", role: "data", handling: "keep", piiType: null },
  { name: "income", role: "data", handling: "keep", piiType: null },
  { name: "zip", role: "quasi_identifier", handling: "keep", piiType: "us_zip_code" },
  { name: "city", role: "quasi_identifier", handling: "keep", piiType: null },
  { name: "born", role: "quasi_identifier", handling: "keep", piiType: "date_of_birth" },
  { name: "subscribed", role: "data", handling: "keep", piiType: null }
]

/** The real table: 400 customers, one of them the only one living in Smallville. */
export const realCustomers = (): ReadonlyArray<Person> =>
  people(400, 21, 0).map((person, index) => (index === 7 ? { ...person, city: "Smallville" } : person))
