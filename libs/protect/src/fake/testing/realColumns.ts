import { Faker, de, en, en_GB, base } from "@faker-js/faker"
import {
  abaRoutingNumber,
  bitcoinAddress,
  brazilianCpf,
  canadianSin,
  icd10Code,
  nhsNumber,
  nino,
  npiNumber,
  phoneNumber,
  ssn
} from "@synth/pii"
import type { ColumnType } from "@synth/synth"
import type { FakeKind } from "../../roles/ColumnPlan.ts"
import { makeDraws } from "../draws.ts"

/**
 * Real-looking columns for the fakers' tests: faker and the pii library's valid-value generators on their own seed,
 * standing in for a customer's data (no real person's values in the repository). Each kind's values are the kind the
 * scan recognises, so its detector is expected to recognise the fakes too.
 */
export interface RealColumn {
  readonly kind: FakeKind
  readonly type: ColumnType
  readonly values: ReadonlyArray<string>
}

const fakerFor = (seed: number) => {
  const faker = new Faker({ locale: [en, base] })
  faker.seed(seed)
  return faker
}

export const realColumn = (kind: FakeKind, rows: number, seed: number): RealColumn => {
  const faker = fakerFor(seed)
  const ukFaker = new Faker({ locale: [en_GB, en, base] })
  ukFaker.seed(seed)
  const draws = makeDraws(seed)
  const make = (value: () => string, type: ColumnType = "string"): RealColumn => ({ kind, type, values: Array.from({ length: rows }, value) })
  switch (kind) {
    case "person_name":
      return make(() => `${faker.person.firstName()} ${faker.person.lastName()}`)
    case "email_address":
      return make(() => faker.internet.email())
    case "phone_number":
      return make(() => phoneNumber(draws, draws.pick(["US", "GB"])))
    case "social_security_number":
      return make(() => ssn(draws, true))
    case "passport_number":
      return make(() => draws.digits(9))
    case "drivers_license_number":
      return make(() => `${faker.string.alpha({ length: 1, casing: "upper" })}${draws.digits(7)}`)
    case "uk_national_insurance_number":
      return make(() => nino(draws))
    case "nhs_number":
      return make(() => nhsNumber(draws))
    case "canadian_social_insurance_number":
      return make(() => canadianSin(draws))
    case "national_id_number":
      return make(() => brazilianCpf(draws))
    case "date_of_birth":
      return make(() => faker.date.birthdate({ mode: "age", min: 18, max: 90, refDate: "2024-06-01T00:00:00Z" }).toISOString().slice(0, 10), "date")
    case "ip_address":
      return make(() => faker.internet.ipv4())
    case "mac_address":
      return make(() => faker.internet.mac())
    case "url":
      return make(() => `https://www.example-social.com/in/${faker.person.firstName().toLowerCase()}-${faker.person.lastName().toLowerCase()}-${draws.digits(3)}`)
    case "username":
      return make(() => `${faker.person.firstName()}${draws.digits(2)}`)
    case "credit_card_number":
      return make(() => faker.finance.creditCardNumber({ issuer: "visa" }))
    case "iban":
      return make(() => faker.finance.iban({ formatted: true, countryCode: "DE" }))
    case "bank_routing_number":
      return make(() => abaRoutingNumber(draws))
    case "bank_account_number":
      return make(() => faker.finance.accountNumber(10))
    case "crypto_wallet_address":
      return make(() => bitcoinAddress(draws))
    case "medical_record_number":
      return make(() => `MRN-${draws.digits(7)}`)
    case "icd10_code":
      return make(() => `${icd10Code(draws).slice(0, 3)}.${draws.digits(1)}`)
    case "npi_number":
      return make(() => npiNumber(draws))
    case "street_address":
      return make(() => `${draws.integer(1, 999)} ${faker.person.lastName()} ${draws.pick(["Street", "Avenue", "Road", "Lane"])}`)
    case "us_zip_code":
      return make(() => faker.location.zipCode("#####"))
    case "uk_postcode":
      return make(() => ukFaker.location.zipCode())
    case "city":
      return make(() => draws.pick(["Boston", "Denver", "Austin", "Seattle", "Portland", "Phoenix", "Dallas", "Miami"]))
    case "geo_coordinates":
      return make(() => `${faker.location.latitude({ precision: 5 }).toFixed(5)}, ${faker.location.longitude({ precision: 5 }).toFixed(5)}`)
    case "identifier":
      return make(() => `CUST-${draws.digits(6)}`)
  }
}

/** German names (faker's `de` lists) for the locale tests. */
export const germanNames = (rows: number, seed: number): ReadonlyArray<string> => {
  const faker = new Faker({ locale: [de, en, base] })
  faker.seed(seed)
  return Array.from({ length: rows }, () => `${faker.person.firstName()} ${faker.person.lastName()}`)
}
