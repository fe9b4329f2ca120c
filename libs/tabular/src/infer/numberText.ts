/**
 * Reads a trimmed cell as a number under both decimal conventions, because one cell alone often cannot tell them
 * apart ("1,234" is 1234 with comma thousands and 1.234 with a decimal comma); the column decides (see
 * NumberEvidence). Integer parts with a leading zero ("007", "01234") are not numbers: they are codes, postcodes
 * and phone numbers, and reading them as numbers would lose the zeros.
 */

/** Dot decimal, optionally comma thousands: `1,234,567.5`. */
export const dotDecimal = 1
/** Comma decimal, optionally dot thousands: `1.234.567,5`. */
export const commaDecimal = 2
export type NumberConvention = typeof dotDecimal | typeof commaDecimal

export interface NumberReading {
  /** Bit set of the conventions under which the text is a number (0: not a number). */
  conventions: number
  dotValue: number
  commaValue: number
  /** Written without decimals or exponent under that convention. */
  dotIntegral: boolean
  commaIntegral: boolean
  /** Written with separators (thousands or decimal comma) under that convention: converting it standardises it. */
  dotSeparated: boolean
  commaSeparated: boolean
}

export const emptyNumberReading = (): NumberReading => ({
  conventions: 0,
  dotValue: 0,
  commaValue: 0,
  dotIntegral: false,
  commaIntegral: false,
  dotSeparated: false,
  commaSeparated: false
})

const plainNumber = /^[+-]?(?:(?:0|[1-9]\d*)(\.\d*)?|(\.\d+))([eE][+-]?\d+)?$/
const singleDotGroup = /^[+-]?[1-9]\d{0,2}\.\d{3}$/
const commaThousands = /^[+-]?[1-9]\d{0,2}(?:,\d{3})+(\.\d+)?$/
const dotThousands = /^[+-]?[1-9]\d{0,2}(?:\.\d{3})+(,\d+)?$/
const decimalComma = /^[+-]?(?:0|[1-9]\d*),\d+$/

const mayStartANumber = (code: number): boolean =>
  (code >= 48 && code <= 57) || code === 43 /* + */ || code === 45 /* - */ || code === 46 /* . */

/** Fills `reading` (reused across cells so that the hot loop allocates nothing) and returns it. */
export const readNumberText = (text: string, reading: NumberReading): NumberReading => {
  reading.conventions = 0
  if (text.length === 0 || !mayStartANumber(text.charCodeAt(0))) return reading
  const integer = plainInteger(text)
  if (integer !== undefined) {
    setDot(reading, integer, true, false)
    setComma(reading, integer, true, false)
    return reading
  }
  const plain = plainNumber.exec(text)
  if (plain !== null) {
    const integral = plain[1] === undefined && plain[2] === undefined && plain[3] === undefined
    const value = Number(text)
    setDot(reading, value, integral, false)
    if (integral) setComma(reading, value, true, false)
    else if (singleDotGroup.test(text)) setComma(reading, Number(text.replace(".", "")), true, true)
    return reading
  }
  const thousands = commaThousands.exec(text)
  if (thousands !== null) {
    setDot(reading, Number(text.replaceAll(",", "")), thousands[1] === undefined, true)
    if (decimalComma.test(text)) setComma(reading, Number(text.replace(",", ".")), false, true)
    return reading
  }
  const european = dotThousands.exec(text)
  if (european !== null) {
    setComma(reading, Number(text.replaceAll(".", "").replace(",", ".")), european[1] === undefined, true)
    return reading
  }
  if (decimalComma.test(text)) setComma(reading, Number(text.replace(",", ".")), false, true)
  return reading
}

/**
 * Most numeric cells are short plain integers; reading them digit by digit skips the regular expressions. Undefined
 * for anything else (including leading zeros and more than 15 digits, which take the general path).
 */
const plainInteger = (text: string): number | undefined => {
  const signed = text.charCodeAt(0) === 45 || text.charCodeAt(0) === 43
  const start = signed ? 1 : 0
  const digits = text.length - start
  if (digits === 0 || digits > 15 || (digits > 1 && text.charCodeAt(start) === 48)) return undefined
  let value = 0
  for (let index = start; index < text.length; index++) {
    const digit = text.charCodeAt(index) - 48
    if (digit < 0 || digit > 9) return undefined
    value = value * 10 + digit
  }
  return text.charCodeAt(0) === 45 ? -value : value
}

/** An integer beyond ±(2^53−1) cannot be held exactly, and a float beyond the double range is Infinity: text. */
const representable = (value: number, integral: boolean): boolean =>
  integral ? Number.isSafeInteger(value) : Number.isFinite(value)

const setDot = (reading: NumberReading, value: number, integral: boolean, separated: boolean): void => {
  if (!representable(value, integral)) return
  reading.conventions |= dotDecimal
  reading.dotValue = value
  reading.dotIntegral = integral
  reading.dotSeparated = separated
}

const setComma = (reading: NumberReading, value: number, integral: boolean, separated: boolean): void => {
  if (!representable(value, integral)) return
  reading.conventions |= commaDecimal
  reading.commaValue = value
  reading.commaIntegral = integral
  reading.commaSeparated = separated
}

/** The value of a cell that inference accepted under `convention`; NaN when it does not read that way. */
export const numberUnder = (text: string, convention: NumberConvention, reading: NumberReading): number => {
  readNumberText(text, reading)
  if ((reading.conventions & convention) === 0) return Number.NaN
  return convention === dotDecimal ? reading.dotValue : reading.commaValue
}
