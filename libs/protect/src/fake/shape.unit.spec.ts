import { canadianSin, nino, phoneNumber, ssn } from "@synth/pii"
import type { ColumnType } from "@synth/synth"
import { Faker, base, en } from "@faker-js/faker"
import { describe, expect, it } from "vitest"
import type { FakeKind } from "../roles/ColumnPlan.ts"
import { makeDraws } from "./draws.ts"
import { fakeColumn } from "./fakeColumn.ts"
import { maskOf } from "./masks.ts"
import { planFakeColumn } from "./planFakeColumn.ts"
import { firstNameIndex, lastNameIndex } from "./locales.ts"

const settings = { seed: 5, rareThreshold: 5, learnFromValues: true }

const fake = (kind: FakeKind, values: ReadonlyArray<string | null>, rows = 1000, type: ColumnType = "string", k = 5) => {
  const { plan, realValues } = planFakeColumn({ name: "column", type, kind, values }, { ...settings, rareThreshold: k })
  return { plan, fakes: fakeColumn(plan, rows, 9, realValues) }
}

const present = (values: ReadonlyArray<string | null>) => values.filter((value): value is string => value !== null)

const share = (values: ReadonlyArray<string>, test: (value: string) => boolean) => values.filter(test).length / values.length

const english = () => {
  const faker = new Faker({ locale: [en, base] })
  faker.seed(3)
  return faker
}

describe("fakes keep the column's formats", () => {
  it("dashed and bare SSNs stay in their mix", () => {
    const draws = makeDraws(1)
    const values = Array.from({ length: 400 }, (_, index) => ssn(draws, index % 4 !== 0))
    const fakes = present(fake("social_security_number", values).fakes)
    expect(share(fakes, (value) => /^\d{3}-\d{2}-\d{4}$/.test(value))).toBeCloseTo(0.75, 1)
    expect(share(fakes, (value) => /^\d{9}$/.test(value))).toBeCloseTo(0.25, 1)
  })

  it("phone numbers keep their layouts, the + of E.164 and their regions", () => {
    const draws = makeDraws(2)
    const values = Array.from({ length: 400 }, (_, index) => (index % 2 === 0 ? `+1${phoneNumber(draws, "US").replace(/\D/g, "").slice(-10)}` : phoneNumber(draws, "GB")))
    const masks = new Set(values.map(maskOf))
    const fakes = present(fake("phone_number", values).fakes)
    expect(share(fakes, (value) => masks.has(maskOf(value)))).toBe(1)
    expect(share(fakes, (value) => value.startsWith("+1"))).toBeCloseTo(share(values, (value) => value.startsWith("+1")), 1)
  })

  it("a SIN column written with spaces and one with dashes stay so", () => {
    const draws = makeDraws(3)
    const spaced = Array.from({ length: 200 }, () => canadianSin(draws).replace(/-/g, " "))
    const dashed = spaced.map((value) => value.replace(/ /g, "-"))
    expect(share(present(fake("canadian_social_insurance_number", spaced).fakes), (value) => /^\d{3} \d{3} \d{3}$/.test(value))).toBe(1)
    expect(share(present(fake("canadian_social_insurance_number", dashed).fakes), (value) => /^\d{3}-\d{3}-\d{3}$/.test(value))).toBe(1)
  })

  it("NINOs keep spacing and case", () => {
    const draws = makeDraws(4)
    const values = Array.from({ length: 200 }, () => nino(draws).replace(/\s/g, "").toLowerCase())
    expect(share(present(fake("uk_national_insurance_number", values).fakes), (value) => /^[a-z]{2}\d{6}[a-d]$/.test(value))).toBe(1)
  })

  it("`Last, First` names stay so, in upper case when the column is", () => {
    const faker = english()
    const values = Array.from({ length: 300 }, () => `${faker.person.lastName()}, ${faker.person.firstName()}`.toUpperCase())
    const fakes = present(fake("person_name", values).fakes)
    expect(share(fakes, (value) => /^[^,]+, [^,]+$/.test(value) && value === value.toUpperCase())).toBe(1)
  })

  it("a first-name column stays one of first names, a last-name column one of last names", () => {
    const faker = english()
    const firsts = present(fake("person_name", Array.from({ length: 300 }, () => faker.person.firstName())).fakes)
    const lasts = present(fake("person_name", Array.from({ length: 300 }, () => faker.person.lastName())).fakes)
    expect(share(firsts, (value) => !value.includes(" ") && firstNameIndex().localesOf(value) !== undefined)).toBeGreaterThan(0.95)
    expect(share(lasts, (value) => !value.includes(" ") && lastNameIndex().localesOf(value) !== undefined)).toBeGreaterThan(0.95)
  })

  it("IBANs keep their country and their grouping", () => {
    const faker = english()
    const values = Array.from({ length: 300 }, (_, index) => faker.finance.iban({ countryCode: index % 3 === 0 ? "FR" : "GB", formatted: false }))
    const fakes = present(fake("iban", values).fakes)
    expect(share(fakes, (value) => !value.includes(" "))).toBe(1)
    expect(share(fakes, (value) => value.startsWith("FR"))).toBeCloseTo(1 / 3, 1)
    expect(share(fakes, (value) => value.startsWith("GB"))).toBeCloseTo(2 / 3, 1)
  })

  it("e-mail local parts keep their pattern mix", () => {
    const faker = english()
    const values = Array.from({ length: 400 }, (_, index) => {
      const ascii = (name: string) => name.toLowerCase().replace(/[^a-z]/g, "")
      const [first, last] = [ascii(faker.person.firstName()), ascii(faker.person.lastName())]
      return index % 2 === 0 ? `${first}.${last}@example.org` : `${first.charAt(0)}${last}${faker.string.numeric(2)}@example.org`
    })
    const { plan, fakes } = fake("email_address", values)
    expect(plan.generator._tag === "email" && plan.generator.handles.map((handle) => handle.value)).toEqual(expect.arrayContaining(["{first}.{last}", "{f}{last}{d2}"]))
    expect(share(present(fakes), (value) => /^[a-z]+\.[a-z]+@example\.org$/.test(value))).toBeCloseTo(0.5, 1)
    expect(share(present(fakes), (value) => /^[a-z]+\d{2}@example\.org$/.test(value))).toBeCloseTo(0.5, 1)
  })

  it("integer-typed columns get digits that parse as safe integers of the real digit counts", () => {
    const draws = makeDraws(6)
    const values = Array.from({ length: 400 }, () => String(Number(ssn(draws, false))))
    const counts = new Set(values.map((value) => value.length))
    const fakes = present(fake("social_security_number", values, 1000, "integer").fakes)
    for (const value of fakes) {
      expect(value).toMatch(/^[1-9]\d*$/)
      expect(Number.isSafeInteger(Number(value))).toBe(true)
      expect(counts.has(value.length)).toBe(true)
    }
  })

  it("missing values come back at the real rate, at random positions", () => {
    const draws = makeDraws(7)
    const values = Array.from({ length: 1000 }, (_, index) => (index % 5 === 0 ? null : ssn(draws, true)))
    const { fakes } = fake("social_security_number", values, 2000)
    const missing = fakes.map((value, index) => (value === null ? index : -1)).filter((index) => index >= 0)
    expect(missing.length).toBe(400)
    // Not every fifth row as the real column had them.
    expect(missing.filter((index) => index % 5 === 0).length).toBeLessThan(200)
  })
})

describe("fakes keep the layouts of dates, cards, network addresses, coordinates and URLs", () => {
  const keepsMasks = (kind: FakeKind, values: ReadonlyArray<string>) => {
    const masks = new Set(values.map(maskOf))
    expect(present(fake(kind, values).fakes).filter((value) => !masks.has(maskOf(value)))).toEqual([])
  }

  it("US-style birth dates stay MM/DD/YYYY", () => {
    const faker = english()
    const values = Array.from({ length: 300 }, () => {
      const date = faker.date.birthdate({ mode: "age", min: 20, max: 80, refDate: "2024-01-01T00:00:00Z" })
      return `${String(date.getUTCMonth() + 1).padStart(2, "0")}/${String(date.getUTCDate()).padStart(2, "0")}/${date.getUTCFullYear()}`
    })
    keepsMasks("date_of_birth", values)
  })

  it("card numbers keep their grouping and length", () => {
    const faker = english()
    keepsMasks("credit_card_number", Array.from({ length: 300 }, () => faker.finance.creditCardNumber({ issuer: "visa" }).replace(/\D/g, "").replace(/(\d{4})(?=\d)/g, "$1 ")))
  })

  it("MAC addresses keep separator and case", () => {
    const faker = english()
    const fakes = present(fake("mac_address", Array.from({ length: 300 }, () => faker.internet.mac({ separator: "-" }).toUpperCase())).fakes)
    expect(fakes.every((value) => /^(?:[0-9A-F]{2}-){5}[0-9A-F]{2}$/.test(value))).toBe(true)
  })

  it("IPv6 addresses stay IPv6, compressed when the column's were", () => {
    const faker = english()
    const values = Array.from({ length: 300 }, () => faker.internet.ipv6().replace(/(^|:)0+(?=[0-9a-f])/g, "$1"))
    const fakes = present(fake("ip_address", values).fakes)
    // Written as RFC 5952 writes it: no group with a leading zero, the longest run of zero groups (if any) as `::`.
    expect(fakes.every((value) => (value.split(":").length === 8 || value.includes("::")) && value.split(":").every((group) => /^(?:|0|[1-9a-f][0-9a-f]{0,3})$/.test(group)))).toBe(true)
  })

  it("coordinates keep their decimals and parentheses", () => {
    const faker = english()
    const values = Array.from({ length: 300 }, () => `(${faker.location.latitude({ min: 10, max: 60, precision: 4 }).toFixed(4)},${faker.location.longitude({ min: 10, max: 99, precision: 4 }).toFixed(4)})`)
    expect(present(fake("geo_coordinates", values).fakes).every((value) => /^\(-?\d{1,3}\.\d{4},-?\d{1,3}\.\d{4}\)$/.test(value))).toBe(true)
  })

  it("a host and a path segment ≥ k rows share are kept, the person's part is not", () => {
    const faker = english()
    const values = Array.from({ length: 300 }, () => `https://www.example-social.com/in/${faker.person.firstName().toLowerCase().replace(/[^a-z]/g, "")}-${faker.person.lastName().toLowerCase().replace(/[^a-z]/g, "")}`)
    const fakes = present(fake("url", values).fakes)
    expect(fakes.every((value) => /^https:\/\/www\.example-social\.com\/in\/[a-z]+-[a-z]+$/.test(value))).toBe(true)
  })
})

describe("rare formats are not learned", () => {
  it("a layout held by fewer than k rows never appears; its rows take the most common layout", () => {
    const draws = makeDraws(8)
    const values = [...Array.from({ length: 300 }, () => ssn(draws, true)), ...Array.from({ length: 4 }, () => ssn(draws, false))]
    const { plan, fakes } = fake("social_security_number", values, 3000)
    expect(present(fakes).filter((value) => /^\d{9}$/.test(value))).toEqual([])
    expect(JSON.stringify(plan)).not.toContain('"#########"')
  })

  it("an e-mail domain held by fewer than k rows never appears; those rows get free e-mail domains", () => {
    const faker = english()
    const values = [
      ...Array.from({ length: 200 }, () => `${faker.person.firstName()}.${faker.person.lastName()}@bigcorp.example`.toLowerCase()),
      ...Array.from({ length: 4 }, () => `${faker.person.firstName()}@tiny-family-domain.example`.toLowerCase())
    ]
    const fakes = present(fake("email_address", values, 3000).fakes)
    expect(fakes.filter((value) => value.endsWith("@tiny-family-domain.example"))).toEqual([])
    expect(share(fakes, (value) => value.endsWith("@bigcorp.example"))).toBeGreaterThan(0.9)
    expect(fakes.some((value) => /@(gmail|yahoo|hotmail)\.com$/.test(value))).toBe(true)
  })

  it("with k = 1 the same rare layout is learned (the threshold is what keeps it out)", () => {
    const draws = makeDraws(8)
    const values = [...Array.from({ length: 300 }, () => ssn(draws, true)), ...Array.from({ length: 4 }, () => ssn(draws, false))]
    const fakes = present(fake("social_security_number", values, 3000, "string", 1).fakes)
    expect(fakes.some((value) => /^\d{9}$/.test(value))).toBe(true)
  })
})
