import libphonenumber from "google-libphonenumber"
import { createHash } from "node:crypto"
import { luhnValid, nhsNumberValid } from "../patterns/checksums.ts"

/**
 * Values with correct check digits for the types faker cannot make valid (NHS, SIN, NPI, ABA, NINO, Bitcoin...):
 * real data of these types is valid by construction, so the corpus must be too. `digit(n)` draws n random digits.
 */
export interface Draw {
  readonly digits: (count: number) => string
  readonly integer: (low: number, high: number) => number
  readonly pick: <A>(items: ReadonlyArray<A>) => A
}

/** The digit that makes `partial + digit` pass Luhn. */
const luhnCheckDigit = (partial: string) => {
  for (let digit = 0; digit <= 9; digit++) if (luhnValid(`${partial}${digit}`)) return String(digit)
  throw new Error("unreachable: one Luhn digit always fits")
}

export const nhsNumber = (draw: Draw): string => {
  for (;;) {
    const candidate = draw.digits(9)
    for (let digit = 0; digit <= 9; digit++) {
      const value = `${candidate}${digit}`
      if (nhsNumberValid(value)) return `${value.slice(0, 3)} ${value.slice(3, 6)} ${value.slice(6)}`
    }
  }
}

export const canadianSin = (draw: Draw): string => {
  const partial = `${draw.pick(["1", "2", "3", "4", "5", "6", "7", "9"])}${draw.digits(7)}`
  const value = partial + luhnCheckDigit(partial)
  const separator = draw.pick([" ", "-"])
  return `${value.slice(0, 3)}${separator}${value.slice(3, 6)}${separator}${value.slice(6)}`
}

export const npiNumber = (draw: Draw): string => {
  const partial = `${draw.pick(["1", "2"])}${draw.digits(8)}`
  return partial + luhnCheckDigit(`80840${partial}`)
}

export const abaRoutingNumber = (draw: Draw): string => {
  const prefix = String(draw.pick([...Array.from({ length: 12 }, (_, i) => i + 1), ...Array.from({ length: 12 }, (_, i) => i + 21), ...Array.from({ length: 12 }, (_, i) => i + 61)])).padStart(2, "0")
  const partial = `${prefix}${draw.digits(6)}`
  const weights = [3, 7, 1, 3, 7, 1, 3, 7]
  const sum = [...partial].reduce((total, digit, index) => total + Number(digit) * weights[index]!, 0)
  return partial + String((10 - (sum % 10)) % 10)
}

export const ssn = (draw: Draw, dashed: boolean): string => {
  let area = draw.integer(1, 899)
  if (area === 666) area = 667
  const parts = [String(area).padStart(3, "0"), String(draw.integer(1, 99)).padStart(2, "0"), String(draw.integer(1, 9999)).padStart(4, "0")]
  return parts.join(dashed ? "-" : "")
}

export const nino = (draw: Draw): string => {
  const first = "ABCEGHJKLMNOPRSTWXYZ"
  const second = "ABCEGHJKLMNPRSTWXYZ"
  for (;;) {
    const prefix = draw.pick([...first]) + draw.pick([...second])
    if (["BG", "GB", "NK", "KN", "TN", "NT", "ZZ"].includes(prefix)) continue
    const digits = draw.digits(6)
    const suffix = draw.pick(["A", "B", "C", "D"])
    return draw.pick([true, false]) ? `${prefix} ${digits.slice(0, 2)} ${digits.slice(2, 4)} ${digits.slice(4)} ${suffix}` : `${prefix}${digits}${suffix}`
  }
}

const base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

const base58Encode = (bytes: Uint8Array) => {
  let value = BigInt(`0x${Buffer.from(bytes).toString("hex")}`)
  let text = ""
  while (value > 0n) {
    text = base58[Number(value % 58n)] + text
    value /= 58n
  }
  for (const byte of bytes) {
    if (byte !== 0) break
    text = `1${text}`
  }
  return text
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest()

export const bitcoinAddress = (draw: Draw): string => {
  const payload = new Uint8Array(21)
  payload[0] = draw.pick([0x00, 0x05])
  for (let index = 1; index < 21; index++) payload[index] = draw.integer(0, 255)
  const checksum = sha256(sha256(payload)).subarray(0, 4)
  return base58Encode(Uint8Array.from([...payload, ...checksum]))
}

export const icd10Code = (draw: Draw): string => {
  const letter = draw.pick([..."ABCDEFGHIJKLMNOPQRSTVWXYZ"])
  const head = `${letter}${draw.digits(2)}`
  return draw.integer(0, 3) === 0 ? head : `${head}.${draw.digits(draw.integer(1, 2))}`
}

/** A 16-digit number that fails Luhn: the decoy "random id" that a careless card detector would flag. */
export const notLuhn16 = (draw: Draw): string => {
  for (;;) {
    const value = `${draw.pick(["4", "5", "3", "6", "9", "1"])}${draw.digits(15)}`
    if (!luhnValid(value)) return value
  }
}

/** Spanish DNI: 8 digits and the letter of their remainder mod 23. */
export const spanishDni = (draw: Draw): string => {
  const digits = draw.digits(8)
  return digits + "TRWAGMYFPDXBNJZSQVHLCKE"[Number(digits) % 23]!
}

/** Brazilian CPF with its two mod-11 check digits, formatted 000.000.000-00. */
export const brazilianCpf = (draw: Draw): string => {
  const base = [...draw.digits(9)].map(Number)
  const check = (digits: ReadonlyArray<number>) => {
    const sum = digits.reduce((total, digit, index) => total + digit * (digits.length + 1 - index), 0)
    const rest = (sum * 10) % 11
    return rest === 10 ? 0 : rest
  }
  const first = check(base)
  const second = check([...base, first])
  const all = [...base, first, second].join("")
  return `${all.slice(0, 3)}.${all.slice(3, 6)}.${all.slice(6, 9)}-${all.slice(9)}`
}

const phones = libphonenumber.PhoneNumberUtil.getInstance()
const phoneFormats = [libphonenumber.PhoneNumberFormat.E164, libphonenumber.PhoneNumberFormat.INTERNATIONAL, libphonenumber.PhoneNumberFormat.NATIONAL]

/**
 * A phone number that exists in the region's numbering plan (libphonenumber's metadata): the region's example mobile
 * or fixed-line number with its last digits redrawn until valid, written as E.164, international or national.
 * faker's numbers are shaped right but often fall outside real plans, which real data never does.
 */
export const phoneNumber = (draw: Draw, region: string): string => {
  const type = draw.pick([libphonenumber.PhoneNumberType.MOBILE, libphonenumber.PhoneNumberType.FIXED_LINE])
  const example = phones.getExampleNumberForType(region, type)
  const national = String(example.getNationalNumber())
  for (let attempt = 0; attempt < 200; attempt++) {
    const redrawn = national.slice(0, Math.max(2, national.length - 5)) + draw.digits(Math.min(5, national.length - 2))
    const number = new libphonenumber.PhoneNumber()
    number.setCountryCode(example.getCountryCode()!)
    number.setNationalNumber(Number(redrawn))
    // Italian fixed lines keep a leading 0 that a number drops.
    if (example.hasItalianLeadingZero()) number.setItalianLeadingZero(example.getItalianLeadingZero()!)
    if (phones.isValidNumber(number)) return phones.format(number, draw.pick(phoneFormats))
  }
  return phones.format(example, draw.pick(phoneFormats))
}
