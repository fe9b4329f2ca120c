import { Faker, allLocales, base, de, en, fr } from "@faker-js/faker"
import { describe, expect, it } from "vitest"
import { fakeColumn } from "./fakeColumn.ts"
import { planFakeColumn } from "./planFakeColumn.ts"
import { germanNames } from "./testing/realColumns.ts"

const settings = { seed: 2, rareThreshold: 5, learnFromValues: true }

const listed = (code: "de" | "en" | "fr") => {
  const person = allLocales[code].person!
  const words = (entry: unknown) => (Array.isArray(entry) ? entry : Object.values(entry as Record<string, ReadonlyArray<string>>).flat())
  return { first: new Set<string>(words(person.first_name)), last: new Set<string>(words(person.last_name)) }
}

/** Share of "First Last" names whose two words are both in the locale's own lists. */
const shareOf = (names: ReadonlyArray<string>, code: "de" | "en" | "fr") => {
  const lists = listed(code)
  return names.filter((name) => {
    const [first, last] = name.split(" ")
    return lists.first.has(first!) && lists.last.has(last!)
  }).length / names.length
}

const fakeNames = (values: ReadonlyArray<string>) => {
  const { plan, realValues } = planFakeColumn({ name: "name", type: "string", kind: "person_name", values }, settings)
  return { plan, fakes: fakeColumn(plan, 1000, 4, realValues).filter((value): value is string => value !== null) }
}

describe("fakes come in the column's locale mix", () => {
  it("German names in, mostly German names out", () => {
    const { plan, fakes } = fakeNames(germanNames(300, 8))
    expect(plan.generator._tag === "person_name" && plan.generator.locales[0]!.value).toBe("de")
    expect(shareOf(fakes, "de")).toBeGreaterThan(0.8)
    expect(shareOf(fakes, "en")).toBeLessThan(0.2)
  })

  it("a two-thirds English, one-third French column keeps about that mix", () => {
    const english = new Faker({ locale: [en, base] })
    const french = new Faker({ locale: [fr, en, base] })
    english.seed(1)
    french.seed(1)
    const values = Array.from({ length: 600 }, (_, index) => {
      const faker = index % 3 === 0 ? french : english
      return `${faker.person.firstName()} ${faker.person.lastName()}`
    })
    const { fakes } = fakeNames(values)
    expect(shareOf(fakes, "fr")).toBeGreaterThan(0.2)
    expect(shareOf(fakes, "fr")).toBeLessThan(0.45)
    expect(shareOf(fakes, "en")).toBeGreaterThan(0.5)
  })

  it("e-mail addresses built from German names get German names", () => {
    const faker = new Faker({ locale: [de, en, base] })
    faker.seed(5)
    const fold = (name: string) => name.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "").replace(/ß/g, "ss").replace(/[^a-z]/g, "")
    const values = Array.from({ length: 300 }, () => `${fold(faker.person.firstName())}.${fold(faker.person.lastName())}@web.de`)
    const { plan, realValues } = planFakeColumn({ name: "email", type: "string", kind: "email_address", values }, settings)
    expect(plan.generator._tag === "email" && plan.generator.locales[0]!.value).toBe("de")
    const fakes = fakeColumn(plan, 500, 1, realValues).filter((value): value is string => value !== null)
    const germanLast = new Set([...listed("de").last].map(fold))
    const share = fakes.filter((value) => germanLast.has(value.split("@")[0]!.split(".")[1]!)).length / fakes.length
    expect(share).toBeGreaterThan(0.8)
    expect(fakes.every((value) => value.endsWith("@web.de"))).toBe(true)
  })

  it("phone numbers keep their regions", () => {
    const values = Array.from({ length: 300 }, (_, index) => (index % 4 === 0 ? `+49 30 ${String(1_000_000 + index * 37).slice(0, 7)}` : `+44 20 7946 ${String(1000 + index).slice(-4)}`))
    const { plan, realValues } = planFakeColumn({ name: "phone", type: "string", kind: "phone_number", values }, settings)
    const fakes = fakeColumn(plan, 1000, 1, realValues).filter((value): value is string => value !== null)
    const german = fakes.filter((value) => value.startsWith("+49 ")).length / fakes.length
    expect(german).toBeGreaterThan(0.17)
    expect(german).toBeLessThan(0.33)
    expect(fakes.filter((value) => !value.startsWith("+49 ") && !value.startsWith("+44 "))).toEqual([])
  })

  it("street addresses keep their locale", () => {
    const faker = new Faker({ locale: [de, en, base] })
    faker.seed(9)
    const values = Array.from({ length: 300 }, () => `${faker.person.lastName()}straße ${faker.number.int({ min: 1, max: 120 })}`)
    const { plan } = planFakeColumn({ name: "address", type: "string", kind: "street_address", values }, settings)
    expect(plan.generator._tag === "street_address" && plan.generator.formats[0]!.value.locale).toBe("de")
  })
})
