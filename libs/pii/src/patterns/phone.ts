import libphonenumber from "google-libphonenumber"

// A CommonJS module: its named exports exist only on the default export under ESM (Node, Deno).
const phones = libphonenumber.PhoneNumberUtil.getInstance()

/**
 * Regions tried for numbers written without a country code, in order: those of the locales our users' data most
 * often comes from (North America, the UK, the large EU markets, Brazil, India, Australia). A number valid in none
 * of them is not flagged; one with a `+` is checked against its own country code only.
 */
export const nationalRegions = ["US", "GB", "DE", "FR", "ES", "IT", "NL", "BR", "CA", "IN", "AU"] as const

// Digits with the separators people write phone numbers with, an optional extension; 7 to 15 digits (E.164's maximum).
const phoneShape = /^\+?[\d\s().\-/]{7,24}(?:\s*(?:x|ext\.?)\s*\d{1,6})?$/i
const isoDateLike = /^\d{4}-\d{2}-\d{2}/
// `40.712776`, `-33.8688`: one decimal point is a measurement or a coordinate; dotted phones have two or more dots.
const plainDecimal = /^[+-]?\d+\.\d+$/
const hasSeparatorOrPrefix = /[\s().\-/]|^\+|^0/

const validIn = (value: string, region: string | undefined): boolean => {
  try {
    return phones.isValidNumber(phones.parseAndKeepRawInput(value, region))
  } catch {
    return false
  }
}

/**
 * A phone number: E.164 (`+14155550123`) or a national format that libphonenumber validates for one of the regions.
 * A bare run of digits without `+`, a leading 0 or separators is not taken for a phone: too many ids look the same.
 */
export const isPhoneNumber = (value: string): boolean => {
  if (!phoneShape.test(value) || isoDateLike.test(value) || plainDecimal.test(value)) return false
  const digits = value.replace(/\D/g, "").length
  if (digits < 7 || digits > 15) return false
  if (value.startsWith("+")) return validIn(value, undefined)
  if (!hasSeparatorOrPrefix.test(value)) return false
  return nationalRegions.some((region) => validIn(value, region))
}

/**
 * Digits only, as a phone number loses its `+` or separators when a column of them is read as integers: valid as
 * E.164 with the `+` put back, or as a national number of one of the regions. Loose: ids look the same, so only a
 * column name (or the AI layer) makes such a column a phone column.
 */
export const isBarePhoneNumber = (value: string): boolean => {
  if (!/^\d{9,15}$/.test(value)) return false
  return validIn(`+${value}`, undefined) || nationalRegions.some((region) => validIn(value, region))
}
