import { Faker, base, en } from "@faker-js/faker"
import type { ColumnType } from "@synth/synth"
import { describe, expect, it } from "vitest"
import { makeDraws } from "./draws.ts"
import { fakeColumn } from "./fakeColumn.ts"
import { planFakeColumn } from "./planFakeColumn.ts"

const settings = { seed: 8, rareThreshold: 5, learnFromValues: true }

const fakeKeys = (values: ReadonlyArray<string>, rows: number, type: ColumnType = "string") => {
  const { plan, realValues } = planFakeColumn({ name: "id", type, kind: "identifier", values }, settings)
  const fakes = fakeColumn(plan, rows, 5, realValues).filter((value): value is string => value !== null)
  const real = new Set(values)
  expect(plan.unique).toBe(true)
  expect(fakes).toHaveLength(rows)
  expect(new Set(fakes).size).toBe(rows)
  expect(fakes.filter((fake) => real.has(fake))).toEqual([])
  return { plan, fakes }
}

describe("identifiers become fresh keys of the same format", () => {
  it("integer keys keep their digit count", () => {
    const draws = makeDraws(1)
    const values = Array.from({ length: 500 }, () => String(draws.integer(100_000, 999_999)))
    const { fakes } = fakeKeys(values, 2000, "integer")
    expect(fakes.every((fake) => /^[1-9]\d{5}$/.test(fake))).toBe(true)
  })

  it("keys 1..400 asked for 2,000 rows grow by a digit rather than run out", () => {
    const values = Array.from({ length: 400 }, (_, index) => String(index + 1))
    const { plan, fakes } = fakeKeys(values, 2000, "integer")
    expect(plan.generator).toEqual({ _tag: "integer_key", minDigits: 1, maxDigits: 3 })
    expect(fakes.every((fake) => /^[1-9]\d{0,3}$/.test(fake) && Number(fake) > 400)).toBe(true)
  })

  it("UUIDs become version-4 UUIDs in the column's case", () => {
    const faker = new Faker({ locale: [en, base] })
    faker.seed(2)
    const { fakes } = fakeKeys(Array.from({ length: 300 }, () => faker.string.uuid().toUpperCase()), 1000)
    expect(fakes.every((fake) => /^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/.test(fake))).toBe(true)
  })

  it("`CUST-000123` keeps its constant part and zero padding, making room when 2,000 keys do not fit in 400's range", () => {
    const values = Array.from({ length: 400 }, (_, index) => `CUST-${String(index + 1).padStart(6, "0")}`)
    const { fakes } = fakeKeys(values, 2000)
    expect(fakes.every((fake) => /^CUST-\d{6}$/.test(fake))).toBe(true)
    // Only as many leading zeros give way as needed: every key still starts with two of them.
    expect(fakes.every((fake) => fake.startsWith("CUST-00"))).toBe(true)
  })

  it("`A7-x93` codes keep each position's class", () => {
    const draws = makeDraws(3)
    const letter = (alphabet: string) => alphabet[draws.integer(0, alphabet.length - 1)]!
    const values = Array.from({ length: 300 }, () => `${letter("ABCDEFGHIJKLMNOPQRSTUVWXYZ")}${draws.digits(1)}-${letter("abcdefghijklmnopqrstuvwxyz")}${draws.digits(2)}`)
    const { fakes } = fakeKeys(values, 1000)
    expect(fakes.every((fake) => /^[A-Z]\d-[a-z]\d\d$/.test(fake))).toBe(true)
  })

  it("hexadecimal tokens stay hexadecimal of the same length", () => {
    const draws = makeDraws(4)
    const values = Array.from({ length: 300 }, () => Array.from({ length: 24 }, () => "0123456789abcdef"[draws.integer(0, 15)]).join(""))
    const { fakes } = fakeKeys(values, 1000)
    expect(fakes.every((fake) => /^[0-9a-f]{24}$/.test(fake))).toBe(true)
  })

  it("free-text-like keys become lorem words of a similar count", () => {
    const faker = new Faker({ locale: [en, base] })
    faker.seed(6)
    const values = Array.from({ length: 300 }, () => faker.lorem.sentence({ min: 4, max: 8 }))
    const { plan, fakes } = fakeKeys(values, 500)
    expect(plan.generator._tag).toBe("words")
    const counts = fakes.map((fake) => fake.split(" ").length)
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(4)
    expect(Math.max(...counts)).toBeLessThanOrEqual(8)
  })

  it("identifier plans hold no key (only the layout's constant parts)", () => {
    const values = Array.from({ length: 400 }, (_, index) => `CUST-${String(index + 1).padStart(6, "0")}`)
    const { plan } = planFakeColumn({ name: "id", type: "string", kind: "identifier", values }, settings)
    const json = JSON.stringify(plan)
    expect(values.filter((value) => json.includes(value))).toEqual([])
  })
})
