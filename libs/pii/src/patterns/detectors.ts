import validator from "validator"
import type { PatternDetector } from "../types.ts"
import { isPlausibleBirthDate } from "./dateOfBirth.ts"
import {
  abaRoutingValid,
  brazilianCpfValid,
  canadianSinValid,
  digitsOnly,
  nhsNumberValid,
  ninoValid,
  npiValid,
  spanishIdValid,
  ssnPartsValid
} from "./checksums.ts"
import { isCreditCardNumber } from "./creditCard.ts"
import { isCryptoWalletAddress } from "./crypto.ts"
import { isBarePhoneNumber, isPhoneNumber } from "./phone.ts"
import { readValue } from "../lexicon/valueVocabulary.ts"
import { isStreetAddress } from "./streetAddress.ts"

const dashedSsn = /^(\d{3})-(\d{2})-(\d{4})$/
const bareSsn = /^(\d{3})(\d{2})(\d{4})$/

/**
 * Value-level detectors, most specific first. `checksum` and `strict_format` detectors decide a column on their own
 * when most of its values match; `loose_format` ones (a 5-digit ZIP, any date, a bare 9-digit SSN) need a supporting
 * column name. Every `matches` rejects quickly on cheap shape tests before a library call or a checksum.
 */
export const patternDetectors: ReadonlyArray<PatternDetector> = [
  {
    type: "credit_card_number",
    strength: "checksum",
    matches: isCreditCardNumber
  },
  {
    type: "iban",
    strength: "checksum",
    matches: (value) => /^[A-Za-z]{2}\d{2}[A-Za-z0-9 ]{10,36}$/.test(value) && validator.isIBAN(value.replace(/\s/g, "").toUpperCase())
  },
  {
    type: "nhs_number",
    strength: "checksum",
    matches: (value) => /^\d{3}[ -]?\d{3}[ -]?\d{4}$/.test(value) && nhsNumberValid(value)
  },
  {
    type: "npi_number",
    strength: "checksum",
    matches: npiValid
  },
  {
    type: "canadian_social_insurance_number",
    strength: "checksum",
    matches: (value) => /^\d{3}[ -]\d{3}[ -]\d{3}$/.test(value) && canadianSinValid(value)
  },
  {
    type: "bank_routing_number",
    strength: "checksum",
    matches: abaRoutingValid
  },
  {
    type: "national_id_number",
    strength: "checksum",
    matches: (value) => (value.length === 14 || value.length === 11 ? brazilianCpfValid(value) : value.length <= 10 && spanishIdValid(value))
  },
  {
    type: "social_security_number",
    strength: "strict_format",
    matches: (value) => {
      const match = dashedSsn.exec(value)
      return match !== null && ssnPartsValid(match[1]!, match[2]!, match[3]!)
    }
  },
  {
    type: "uk_national_insurance_number",
    strength: "strict_format",
    matches: (value) => value.length <= 13 && ninoValid(value)
  },
  {
    type: "email_address",
    strength: "strict_format",
    matches: (value) => value.includes("@") && validator.isEmail(value)
  },
  {
    type: "crypto_wallet_address",
    strength: "strict_format",
    matches: isCryptoWalletAddress
  },
  {
    type: "mac_address",
    strength: "strict_format",
    matches: (value) => value.length <= 17 && /[:-]/.test(value) && validator.isMACAddress(value)
  },
  {
    // 1.2.3.4 is also a version string: the column's name vetoes `version`-like columns (context/).
    type: "ip_address",
    strength: "strict_format",
    matches: (value) => (value.includes(".") || value.includes(":")) && (validator.isIP(value, 4) || validator.isIP(value, 6))
  },
  {
    type: "geo_coordinates",
    strength: "strict_format",
    matches: (value) => /^\(?-?\d{1,3}\.\d+,\s*-?\d{1,3}\.\d+\)?$/.test(value) && validator.isLatLong(value)
  },
  {
    type: "url",
    strength: "strict_format",
    matches: (value) => /^https?:\/\//i.test(value) && validator.isURL(value, { require_protocol: true })
  },
  {
    type: "uk_postcode",
    strength: "strict_format",
    matches: (value) => /^[A-Za-z]{1,2}\d[A-Za-z\d]?\s*\d[A-Za-z]{2}$/.test(value) && validator.isPostalCode(value, "GB")
  },
  {
    type: "icd10_code",
    strength: "strict_format",
    matches: (value) => /^[A-TV-Z]\d[0-9AB]\.[0-9A-TV-Z]{1,4}$/.test(value)
  },
  {
    type: "medical_record_number",
    strength: "strict_format",
    matches: (value) => /^MRN?[-: #]?\d{5,10}$/i.test(value)
  },
  {
    type: "phone_number",
    strength: "strict_format",
    matches: isPhoneNumber
  },
  {
    type: "phone_number",
    strength: "loose_format",
    matches: isBarePhoneNumber
  },
  {
    type: "street_address",
    strength: "loose_format",
    matches: isStreetAddress
  },
  {
    type: "social_security_number",
    strength: "loose_format",
    matches: (value) => {
      const match = bareSsn.exec(value)
      return match !== null && ssnPartsValid(match[1]!, match[2]!, match[3]!)
    }
  },
  {
    type: "us_zip_code",
    strength: "loose_format",
    matches: (value) => /^\d{5}(?:-\d{4})?$/.test(value)
  },
  {
    type: "date_of_birth",
    strength: "loose_format",
    matches: (value) => isPlausibleBirthDate(value)
  },
  {
    type: "icd10_code",
    strength: "loose_format",
    matches: (value) => /^[A-TV-Z]\d[0-9AB](?:[0-9A-TV-Z]{1,4})?$/.test(value)
  },
  {
    type: "medical_record_number",
    strength: "loose_format",
    matches: (value) => /^\d{6,10}$/.test(value)
  },
  {
    type: "passport_number",
    strength: "loose_format",
    matches: (value) => /^[A-Z]{0,2}\d{6,9}$/.test(value)
  },
  {
    type: "drivers_license_number",
    strength: "loose_format",
    matches: (value) => /^[A-Z]{1,2}[-\s]?\d{5,14}$|^\d{7,12}$|^[A-Z]\d{3}-\d{4}-\d{4}$/.test(value)
  },
  {
    type: "bank_account_number",
    strength: "loose_format",
    matches: (value) => /^\d{6,17}$/.test(digitsOnly(value))
  },
  {
    type: "national_id_number",
    strength: "loose_format",
    matches: (value) => /^[A-Z0-9][A-Z0-9 .-]{5,18}[A-Z0-9]$/i.test(value) && /\d/.test(value)
  },
  {
    type: "username",
    strength: "loose_format",
    matches: (value) => /^@?[A-Za-z][A-Za-z0-9._-]{2,31}$/.test(value)
  },
  {
    type: "person_name",
    strength: "loose_format",
    matches: (value) => /^[\p{Lu}][\p{L}'’.-]+(?:[ -][\p{L}][\p{L}'’.-]*){0,4}$/u.test(value) && !/\d/.test(value)
  },
  {
    // Words of a place name (`Springfield`, `Saint-Denis`, `Mollet del Vallés`, `L'Aquila`): the name or the
    // neighbours decide; the gazetteer and place-name shapes (lexicon/) decide alone.
    type: "city",
    strength: "loose_format",
    matches: (value) => /^[\p{Lu}][\p{L}'’.-]*(?:[ -][\p{L}'’.-]+){0,5}$/u.test(value) && readValue(value) !== "thing"
  }
]
