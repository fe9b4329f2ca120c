import { luhnValid } from "./checksums.ts"

interface Issuer {
  readonly name: string
  readonly prefix: (digits: string) => boolean
  readonly lengths: ReadonlyArray<number>
}

const between = (digits: string, size: number, low: number, high: number) => {
  const head = Number(digits.slice(0, size))
  return head >= low && head <= high
}

/** Issuer identification numbers and lengths (ISO/IEC 7812 registrations as the card networks publish them). */
const issuers: ReadonlyArray<Issuer> = [
  { name: "visa", prefix: (d) => d.startsWith("4"), lengths: [13, 16, 19] },
  { name: "mastercard", prefix: (d) => between(d, 2, 51, 55) || between(d, 4, 2221, 2720), lengths: [16] },
  { name: "amex", prefix: (d) => d.startsWith("34") || d.startsWith("37"), lengths: [15] },
  {
    name: "discover",
    prefix: (d) => d.startsWith("6011") || d.startsWith("65") || between(d, 3, 644, 649) || between(d, 6, 622126, 622925),
    lengths: [16, 17, 18, 19]
  },
  { name: "jcb", prefix: (d) => between(d, 4, 3528, 3589), lengths: [16, 17, 18, 19] },
  { name: "diners", prefix: (d) => between(d, 3, 300, 305) || ["36", "38", "39"].includes(d.slice(0, 2)), lengths: [14, 15, 16, 17, 18, 19] },
  { name: "unionpay", prefix: (d) => d.startsWith("62"), lengths: [16, 17, 18, 19] },
  { name: "maestro", prefix: (d) => ["50", "56", "57", "58", "63", "67", "68", "69"].includes(d.slice(0, 2)), lengths: [12, 13, 14, 15, 16, 17, 18, 19] }
]

const cardShape = /^\d[\d -]{10,22}\d$/

/** A payment card number: a known issuer's prefix and length, and a valid Luhn check digit. Spaces and dashes allowed. */
export const isCreditCardNumber = (value: string): boolean => {
  if (!cardShape.test(value)) return false
  const digits = value.replace(/[ -]/g, "")
  if (digits.length < 12 || digits.length > 19) return false
  const issued = issuers.some((issuer) => issuer.lengths.includes(digits.length) && issuer.prefix(digits))
  return issued && luhnValid(digits)
}
