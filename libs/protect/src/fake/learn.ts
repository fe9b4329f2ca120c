import type { CheckedScheme, FakeGenerator, Slot } from "./FakePlan.ts"
import type { FakeKind } from "../roles/ColumnPlan.ts"
import type { LearnContext } from "./family.ts"
import { defaultAddress, defaultCity, defaultPostcode, learnAddress, learnCity, learnPostcode } from "./families/address.ts"
import { defaultChecked, learnChecked, schemeFits } from "./families/checked.ts"
import { defaultCrypto, learnCrypto } from "./families/crypto.ts"
import { defaultDate, learnDate } from "./families/date.ts"
import { defaultGeoNumber, defaultGeoText, learnGeoNumber, learnGeoText } from "./families/geo.ts"
import { defaultEmail, defaultUsername, learnEmail, learnUsername } from "./families/handles.ts"
import { defaultIban, learnIban } from "./families/iban.ts"
import { defaultIp, defaultMac, learnIp, learnMac } from "./families/network.ts"
import { booleanGenerator, defaultDecimal, learnDecimal } from "./families/number.ts"
import { defaultPersonName, learnPersonName } from "./families/personName.ts"
import { defaultPhone, learnPhone } from "./families/phone.ts"
import { defaultIntegerKey, isWords, learnIntegerKey, learnTemplate, learnUuid, learnWords, slotsOfMask, uuidPattern } from "./families/template.ts"
import { defaultUrl, learnUrl } from "./families/url.ts"
import { heldMix } from "./mix.ts"

/**
 * Which generator fakes a kind of column, learned from its real values or (when nothing may be learned) the type's
 * default. Numeric columns get numbers: keys and check-digit numbers as digits, coordinates as degrees.
 */

const checkedKinds: Partial<Record<FakeKind, CheckedScheme>> = {
  social_security_number: "ssn",
  nhs_number: "nhs",
  canadian_social_insurance_number: "sin",
  npi_number: "npi",
  bank_routing_number: "aba",
  uk_national_insurance_number: "nino",
  credit_card_number: "card",
  icd10_code: "icd10",
  us_zip_code: "us_zip"
}

/** Codes without a check digit, and how they are written when nothing was learned. */
const templateKinds: Partial<Record<FakeKind, string>> = {
  passport_number: "#########",
  drivers_license_number: "A#######",
  medical_record_number: "MRN-#######",
  bank_account_number: "##########"
}

const nationalIdSchemes: ReadonlyArray<CheckedScheme> = ["cpf", "dni", "nie"]

/** An identifier with nothing learned: 12 upper-case letters and digits. */
const defaultCodeSlots: ReadonlyArray<Slot> = Array.from({ length: 12 }, () => ({ alphabet: "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ" }))

const isIntegral = (values: ReadonlyArray<string>) => values.every((value) => /^-?\d+(?:\.0*)?$/.test(value))

export const learnGenerator = (kind: FakeKind, values: ReadonlyArray<string>, context: LearnContext): FakeGenerator => {
  switch (context.type) {
    case "boolean":
      return booleanGenerator
    case "date":
    case "datetime":
      return learnDate(values, context)
    case "float":
      if (kind === "geo_coordinates") return learnGeoNumber(values, context)
      return isIntegral(values) ? learnNumeric(kind, values, context) : learnDecimal(values, context)
    case "integer":
      return learnNumeric(kind, values, context)
    case "string":
      return learnText(kind, values, context)
  }
}

/** An integer column: phone and check-digit numbers keep their kind (as digits), anything else is an integer key. */
const learnNumeric = (kind: FakeKind, values: ReadonlyArray<string>, context: LearnContext): FakeGenerator => {
  const digits = values.map((value) => value.replace(/^-/, "").replace(/\.0*$/, ""))
  if (kind === "phone_number") return learnPhone(digits, context)
  const scheme = checkedKinds[kind] ?? (kind === "national_id_number" ? "cpf" : undefined)
  if (scheme !== undefined) return learnChecked(digits, () => scheme, scheme, context)
  return learnIntegerKey(digits, context.k)
}

const learnText = (kind: FakeKind, values: ReadonlyArray<string>, context: LearnContext): FakeGenerator => {
  const scheme = checkedKinds[kind]
  if (scheme !== undefined) return learnChecked(values, () => scheme, scheme, context)
  const template = templateKinds[kind]
  if (template !== undefined) return learnTemplate(values, context, slotsOfMask(template))
  switch (kind) {
    case "person_name":
      return learnPersonName(values, context)
    case "email_address":
      return learnEmail(values, context)
    case "username":
      return learnUsername(values, context)
    case "phone_number":
      return learnPhone(values, context)
    case "national_id_number":
      return learnNationalId(values, context)
    case "date_of_birth":
      return learnDate(values, context)
    case "ip_address":
      return learnIp(values, context)
    case "mac_address":
      return learnMac(values, context)
    case "url":
      return learnUrl(values, context)
    case "iban":
      return learnIban(values, context)
    case "crypto_wallet_address":
      return learnCrypto(values, context)
    case "street_address":
      return learnAddress(values, context)
    case "uk_postcode":
      return learnPostcode(values, context)
    case "city":
      return learnCity(values, context)
    case "geo_coordinates":
      return learnGeoText(values, context)
    case "identifier":
      return learnIdentifier(values, context)
    default:
      return learnTemplate(values, context, defaultCodeSlots)
  }
}

/** National ids with a known check (Brazil's CPF, Spain's DNI and NIE) keep it; other countries' ids keep their layout. */
const learnNationalId = (values: ReadonlyArray<string>, context: LearnContext): FakeGenerator => {
  const schemeOf = (value: string) => nationalIdSchemes.find((scheme) => schemeFits(scheme, value))
  const fitting = values.filter((value) => schemeOf(value) !== undefined).length
  if (fitting * 2 >= values.length && fitting > 0) return learnChecked(values, schemeOf, "dni", context)
  return learnTemplate(values, context, slotsOfMask("########A"))
}

type IdentifierClass = "integer" | "uuid" | "words" | "code"

const identifierClass = (value: string): IdentifierClass =>
  /^[1-9]\d{0,14}$/.test(value) ? "integer" : uuidPattern.test(value) ? "uuid" : isWords(value) ? "words" : "code"

/** Fresh keys of the identifier's class: integers, UUIDs, codes by template, or words for free-text-like keys. */
const learnIdentifier = (values: ReadonlyArray<string>, context: LearnContext): FakeGenerator => {
  const held = heldMix(values.map(identifierClass), (kind) => kind, context.k)
  const kind = held[0]?.value
  const members = values.filter((value) => identifierClass(value) === kind)
  switch (kind) {
    case "integer":
      return learnIntegerKey(members, context.k)
    case "uuid":
      return learnUuid(members)
    case "words":
      return learnWords(members, context.k)
    case "code":
      return learnTemplate(members, context, defaultCodeSlots)
    case undefined:
      return { _tag: "uuid", upperCase: false }
  }
}

/** The type's default: what a column gets when nothing may be learned from its values (dp-ctgan). */
export const defaultGenerator = (kind: FakeKind, context: Pick<LearnContext, "type">): FakeGenerator => {
  switch (context.type) {
    case "boolean":
      return booleanGenerator
    case "date":
    case "datetime":
      return defaultDate(context)
    case "float":
      return kind === "geo_coordinates" ? defaultGeoNumber : kind === "identifier" ? defaultIntegerKey : defaultDecimal
    case "integer":
      return defaultNumeric(kind, context)
    case "string":
      return defaultText(kind, context)
  }
}

const defaultNumeric = (kind: FakeKind, context: Pick<LearnContext, "type">): FakeGenerator => {
  if (kind === "phone_number") return defaultPhone(context)
  const scheme = checkedKinds[kind] ?? (kind === "national_id_number" ? "cpf" : undefined)
  return scheme !== undefined ? defaultChecked(scheme, context) : defaultIntegerKey
}

const defaultText = (kind: FakeKind, context: Pick<LearnContext, "type">): FakeGenerator => {
  const scheme = checkedKinds[kind]
  if (scheme !== undefined) return defaultChecked(scheme, context)
  const template = templateKinds[kind]
  if (template !== undefined) return { _tag: "template", shapes: [{ value: slotsOfMask(template), rows: 1 }] }
  switch (kind) {
    case "person_name":
      return defaultPersonName
    case "email_address":
      return defaultEmail
    case "username":
      return defaultUsername
    case "phone_number":
      return defaultPhone(context)
    case "national_id_number":
      return defaultChecked("dni", context)
    case "date_of_birth":
      return defaultDate(context)
    case "ip_address":
      return defaultIp
    case "mac_address":
      return defaultMac
    case "url":
      return defaultUrl
    case "iban":
      return defaultIban
    case "crypto_wallet_address":
      return defaultCrypto
    case "street_address":
      return defaultAddress
    case "uk_postcode":
      return defaultPostcode
    case "city":
      return defaultCity
    case "geo_coordinates":
      return defaultGeoText
    case "identifier":
      return { _tag: "uuid", upperCase: false }
    default:
      return { _tag: "template", shapes: [{ value: defaultCodeSlots, rows: 1 }] }
  }
}
