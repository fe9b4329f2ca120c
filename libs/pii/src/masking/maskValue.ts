import type { PiiType } from "../types.ts"

const stars = (count: number) => "*".repeat(Math.max(3, count))

/** First character and `***`: a name or a word stays recognisable as one, never readable. */
const initial = (word: string) => (word.length === 0 ? "" : `${[...word][0]}***`)

/** Every character but the last `keep` becomes `*`, separators kept; short values keep nothing. */
const keepLast = (value: string, wanted: number) => {
  let seen = 0
  const characters = [...value]
  const letterCount = characters.filter((character) => /[\p{L}\p{N}]/u.test(character)).length
  const keep = letterCount >= wanted + 4 ? wanted : 0
  return characters
    .map((character) => {
      if (!/[\p{L}\p{N}]/u.test(character)) return character
      seen++
      return seen > letterCount - keep ? character : "*"
    })
    .join("")
}

/** Identifiers keep their last four characters when long (as receipts print card numbers), two when short. */
const identifier = (value: string) => keepLast(value, value.replace(/[^\p{L}\p{N}]/gu, "").length >= 10 ? 4 : 2)

/** A top-level domain is kept when it is short (`.com`, `.de`); a long one could be a name. */
const shortSuffix = (suffix: string) => (suffix.length <= 5 ? suffix : ".***")

const maskEmail = (value: string) => {
  const at = value.lastIndexOf("@")
  if (at < 0) return generic(value)
  const domain = value.slice(at + 1)
  const dot = domain.lastIndexOf(".")
  const tld = dot < 0 ? "" : shortSuffix(domain.slice(dot))
  return `${initial(value.slice(0, at))}@${initial(dot < 0 ? domain : domain.slice(0, dot))}${tld}`
}

const maskIp = (value: string) => {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(value)) return `${value.split(".")[0]}.*.*.*`
  if (/^[0-9a-f]{1,4}:[0-9a-f:.]*$/i.test(value)) return `${value.split(":")[0]}:****:****`
  return generic(value)
}

const maskUrl = (value: string) => {
  const match = /^([a-z]+:\/\/)([^/?#]+)/i.exec(value)
  if (match === null) return generic(value)
  const host = match[2]!
  const dot = host.lastIndexOf(".")
  return `${match[1]}${initial(dot < 0 ? host : host.slice(0, dot))}${dot < 0 ? "" : shortSuffix(host.slice(dot))}/***`
}

const maskCoordinates = (value: string) =>
  value.replace(/-?\d+\.\d+/g, (number) => (Math.round(Number(number) * 10) / 10).toFixed(1))

const maskBirthDate = (value: string) => {
  const year = /\b(1[89]\d\d|20\d\d)\b/.exec(value)
  return year === null ? "****-**-**" : `${year[1]}-**-**`
}

const maskPostcode = (value: string) => {
  const trimmed = value.trim().toUpperCase()
  if (!/^[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}$/.test(trimmed)) return generic(value)
  const outward = trimmed.includes(" ") ? trimmed.split(/\s+/)[0]! : trimmed.slice(0, -3)
  return `${outward} ***`
}

const maskAddress = (value: string) =>
  value
    .split(/(\s+|,)/)
    .map((part) => (/^\s+$|^,$/.test(part) ? part : /\d/.test(part) ? "***" : initial(part)))
    .join("")

/** Letters and digits, the characters a masked value must not give away. */
const alphanumerics = (value: string) => value.replace(/[^\p{L}\p{N}]/gu, "")

/**
 * Letters become x/X and digits # beyond the first character: the shape of an unknown value, not the value.
 * A value with fewer than five letters and digits is mostly punctuation, which the shape would print as it is, so it
 * becomes stars; so does one whose shape reads like the value itself (`Axxxxxx` is its own shape).
 */
const generic = (value: string) => {
  const characters = [...value]
  if (characters.length <= 4 || alphanumerics(value).length < 5) return stars(characters.length)
  const shape = characters
    .map((character, index) =>
      index === 0 ? character : /\p{N}/u.test(character) ? "#" : /\p{Lu}/u.test(character) ? "X" : /\p{L}/u.test(character) ? "x" : character
    )
    .join("")
  return sharesRun(shape, value, 5) ? stars(characters.length) : shape
}

/** Whether `masked` shows `length` letters and digits of `value` in a row, as a reader would see them. */
const sharesRun = (masked: string, value: string, length: number) => {
  const compact = alphanumerics(value)
  const runs = masked.split(/[^\p{L}\p{N}]+/u)
  for (let start = 0; start + length <= compact.length; start++) {
    const piece = compact.slice(start, start + length)
    if (runs.some((run) => run.includes(piece))) return true
  }
  return false
}

/**
 * A value of a flagged column as results may show it: enough shape to recognise the kind of data
 * (`j***@e***.com`, `***-**-1234`, `**** **** **** 1234`), never enough to identify anyone. Used for every sample
 * value a scan returns or stores.
 */
export const maskValue = (type: PiiType | null, raw: string): string => {
  const value = raw.trim()
  switch (type) {
    case "email_address":
      return maskEmail(value)
    case "social_security_number":
      return `***-**-${value.replace(/\D/g, "").slice(-4)}`
    case "credit_card_number":
      return `**** **** **** ${value.replace(/\D/g, "").slice(-4)}`
    case "iban": {
      const compact = value.replace(/\s/g, "")
      return `${compact.slice(0, 2)}** **** **** ${compact.slice(-4)}`
    }
    case "phone_number":
      return keepLast(value, 2)
    case "person_name":
    case "username":
    case "city":
      return value.split(/\s+/).map(initial).join(" ")
    case "street_address":
      return maskAddress(value)
    case "us_zip_code":
      return `${value.slice(0, 3)}**`
    case "uk_postcode":
      return maskPostcode(value)
    case "date_of_birth":
      return maskBirthDate(value)
    case "ip_address":
      return maskIp(value)
    case "mac_address":
      // The first two octets name the maker's block, not the device.
      return /^[0-9a-f]{2}[:-][0-9a-f]{2}[:-]/i.test(value) ? `${value.slice(0, 5)}:**:**:**:**` : generic(value)
    case "geo_coordinates":
      return maskCoordinates(value)
    case "url":
      return maskUrl(value)
    case "icd10_code":
      return `${value.slice(0, 1)}**${value.includes(".") ? ".*" : ""}`
    case null:
      return generic(value)
    default:
      return identifier(value)
  }
}
