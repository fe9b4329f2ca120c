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
  /** Digits after the decimal mark under that convention (0 for a whole number); -1 when written with an exponent. */
  dotDecimals: number
  commaDecimals: number
  /** Written with thousands separators under that convention. */
  dotGrouped: boolean
  commaGrouped: boolean
}

export const emptyNumberReading = (): NumberReading => ({
  conventions: 0,
  dotValue: 0,
  commaValue: 0,
  dotIntegral: false,
  commaIntegral: false,
  dotSeparated: false,
  commaSeparated: false,
  dotDecimals: 0,
  commaDecimals: 0,
  dotGrouped: false,
  commaGrouped: false
})

const plainNumber = /^[+-]?(?:(?:0|[1-9]\d*)(\.\d*)?|(\.\d+))([eE][+-]?\d+)?$/
const singleDotGroup = /^[+-]?[1-9]\d{0,2}\.\d{3}$/
const commaThousands = /^[+-]?[1-9]\d{0,2}(?:,\d{3})+(\.\d+)?$/
const dotThousands = /^[+-]?[1-9]\d{0,2}(?:\.\d{3})+(,\d+)?$/
const decimalComma = /^[+-]?(?:0|[1-9]\d*),\d+$/

const mayStartANumber = (code: number): boolean =>
  (code >= 48 && code <= 57) || code === 43 /* + */ || code === 45 /* - */ || code === 46 /* . */

/**
 * Fills `reading` (reused across cells so that the hot loop allocates nothing) and returns it. With `exact` false
 * (inference, see `classifyNumberText`) a plain decimal too long for the fast path of `plainDecimal` is not
 * converted: it is known to be finite from its length, and its `dotValue` is NaN.
 */
export const readNumberText = (text: string, reading: NumberReading, exact = true): NumberReading =>
  readNumberIn(text, 0, text.length, reading, exact)

/** `readNumberText` of `text` from `start` to `end` (a CSV field in place): the common forms without a string. */
const readNumberIn = (
  text: string,
  start: number,
  end: number,
  reading: NumberReading,
  exact: boolean
): NumberReading => {
  reading.conventions = 0
  if (end === start || !mayStartANumber(text.charCodeAt(start))) return reading
  const integer = plainInteger(text, start, end)
  if (integer !== undefined) {
    setDot(reading, integer, true, false, 0, false)
    setComma(reading, integer, true, false, 0, false)
    return reading
  }
  const decimal = plainDecimal(text, start, end, exact)
  if (decimal === undefined) {
    reading.conventions = dotDecimal
    reading.dotValue = Number.NaN
    reading.dotIntegral = false
    reading.dotSeparated = false
    reading.dotDecimals = end - text.indexOf(".", start) - 1
    reading.dotGrouped = false
    return reading
  }
  if (!Number.isNaN(decimal)) {
    setDot(reading, decimal, false, false, end - text.indexOf(".", start) - 1, false)
    if (isSingleDotGroup(text, start, end)) {
      setComma(reading, Number(text.slice(start, end).replace(".", "")), true, true, 0, true)
    }
    return reading
  }
  return readByExpressions(text.slice(start, end), reading)
}

/** The forms off the fast paths: exponents, thousands separators, decimal commas. */
const readByExpressions = (text: string, reading: NumberReading): NumberReading => {
  const plain = plainNumber.exec(text)
  if (plain !== null) {
    const integral = plain[1] === undefined && plain[2] === undefined && plain[3] === undefined
    const value = Number(text)
    const decimals = plain[3] !== undefined ? -1 : fractionLength(plain[1] ?? plain[2])
    setDot(reading, value, integral, false, decimals, false)
    if (integral) setComma(reading, value, true, false, 0, false)
    else if (singleDotGroup.test(text)) setComma(reading, Number(text.replace(".", "")), true, true, 0, true)
    return reading
  }
  const thousands = commaThousands.exec(text)
  if (thousands !== null) {
    setDot(reading, Number(text.replaceAll(",", "")), thousands[1] === undefined, true, fractionLength(thousands[1]), true)
    if (decimalComma.test(text)) setComma(reading, Number(text.replace(",", ".")), false, true, afterComma(text), false)
    return reading
  }
  const european = dotThousands.exec(text)
  if (european !== null) {
    const value = Number(text.replaceAll(".", "").replace(",", "."))
    setComma(reading, value, european[1] === undefined, true, fractionLength(european[1]), true)
    return reading
  }
  if (decimalComma.test(text)) setComma(reading, Number(text.replace(",", ".")), false, true, afterComma(text), false)
  return reading
}

/** Digits of a fraction written with its mark (`.25`, `,5`); 0 when there is none. */
const fractionLength = (fraction: string | undefined): number => (fraction === undefined ? 0 : fraction.length - 1)

const afterComma = (text: string): number => text.length - text.indexOf(",") - 1

/**
 * Pass 1's reading: whether a cell is a number under each convention, and of which form, as `readNumberText`, but
 * without the value of long plain decimals, which inference never uses (it needs the value of integers only, for
 * their range, and of cells that read under both conventions, which a plain decimal of over 15 digits cannot).
 * `Number(text)` on those (the 17–19 digit `ratio` column of the bench's mixed CSV) was most of the ~15 % of pass 1's
 * profile spent reading numbers: 900k `String(Math.random())` cells take ~34 ms here against ~96 ms exact (Node 20,
 * CPU medians), ~60 ms of pass 1 on the 100 MB mixed CSV.
 */
export const classifyNumberText = (text: string, reading: NumberReading): NumberReading =>
  readNumberIn(text, 0, text.length, reading, false)

/** `classifyNumberText` of `text` from `start` to `end`. */
export const classifyNumberIn = (text: string, start: number, end: number, reading: NumberReading): NumberReading =>
  readNumberIn(text, start, end, reading, false)

/**
 * Most numeric cells are short plain integers; reading them digit by digit skips the regular expressions. Undefined
 * for anything else (including leading zeros and more than 15 digits, which take the general path). Reads `text`
 * from `start` to `end`, so that pass 2 can read a CSV field where it lies (as the other readers below do).
 */
const plainInteger = (text: string, start: number, end: number): number | undefined => {
  const first = text.charCodeAt(start)
  const digitsStart = first === 45 || first === 43 ? start + 1 : start
  const digits = end - digitsStart
  if (digits === 0 || digits > 15 || (digits > 1 && text.charCodeAt(digitsStart) === 48)) return undefined
  let value = 0
  for (let index = digitsStart; index < end; index++) {
    const digit = text.charCodeAt(index) - 48
    if (digit < 0 || digit > 9) return undefined
    value = value * 10 + digit
  }
  return first === 45 ? -value : value
}

/** Powers of ten up to 10^22, each an exact double. */
const powersOfTen = Array.from({ length: 23 }, (_, exponent) => 10 ** exponent)

/** Below this, an integer summed digit by digit as a double is exact (a larger sum cannot round down below it). */
const exactIntegerLimit = 2 ** 53

/**
 * The value of a plain decimal (`12.34`, `-0.5`, `7.`, `.5`: what `plainNumber` accepts with a dot and without an
 * exponent), read by char codes; NaN for anything else, which takes the regular expressions; undefined for a long
 * one not read (`exact` false). When its digits form an integer below 2^53 they and the power of ten are exact
 * doubles, and one division of the two rounds correctly, so the value equals `Number(text)` without the
 * string-to-double conversion (Clinger's fast path); longer ones use `Number(text)`. On the 100 MB
 * mixed CSV of test/bench/ingest.bench.ts (two decimal columns of ten) the regular expressions were the largest
 * self time of both passes (~12 % of the profile). With this path and the others it came with (trimCell, the
 * two-part date and canonical boolean paths) pass 1 went from ~69 to ~105 MB/s and pass 2 from ~45 to ~64 MB/s
 * (Node 20, medians, shared 2-core machine). Taking 16-digit decimals too (most of `String(Math.random())`, the
 * bench's `ratio` column) rather than only up to 15 digits spared pass 2 a `Number` call on about half of them.
 */
const plainDecimal = (text: string, start: number, end: number, exact: boolean): number | undefined => {
  const first = text.charCodeAt(start)
  let index = first === 45 || first === 43 ? start + 1 : start
  const integerStart = index
  let digits = 0
  for (; index < end; index++) {
    const digit = text.charCodeAt(index) - 48
    if (digit < 0 || digit > 9) break
    digits = digits * 10 + digit
  }
  const integerDigits = index - integerStart
  if (index === end || text.charCodeAt(index) !== 46) return Number.NaN
  if (integerDigits > 1 && text.charCodeAt(integerStart) === 48) return Number.NaN
  const dot = index++
  for (; index < end; index++) {
    const digit = text.charCodeAt(index) - 48
    if (digit < 0 || digit > 9) return Number.NaN
    digits = digits * 10 + digit
  }
  const fractionDigits = end - dot - 1
  if (integerDigits === 0 && fractionDigits === 0) return Number.NaN
  if (digits < exactIntegerLimit && fractionDigits < powersOfTen.length) {
    const value = digits / powersOfTen[fractionDigits]!
    return first === 45 ? -value : value
  }
  // Under 309 integer digits a decimal is below 10^308 < Number.MAX_VALUE: finite whatever its digits.
  return exact || integerDigits > 308 ? Number(text.slice(start, end)) : undefined
}

/** `1.234`: also a whole number written with a dot as thousands separator (what `singleDotGroup` matches). */
const isSingleDotGroup = (text: string, start: number, end: number): boolean => {
  const first = text.charCodeAt(start)
  const integerStart = first === 45 || first === 43 ? start + 1 : start
  const dot = end - 4
  return dot - integerStart >= 1 && dot - integerStart <= 3 && text.charCodeAt(dot) === 46 &&
    text.charCodeAt(integerStart) !== 48
}

/** An integer beyond ±(2^53−1) cannot be held exactly, and a float beyond the double range is Infinity: text. */
const representable = (value: number, integral: boolean): boolean =>
  integral ? Number.isSafeInteger(value) : Number.isFinite(value)

const setDot = (
  reading: NumberReading,
  value: number,
  integral: boolean,
  separated: boolean,
  decimals: number,
  grouped: boolean
): void => {
  if (!representable(value, integral)) return
  reading.conventions |= dotDecimal
  reading.dotValue = value
  reading.dotIntegral = integral
  reading.dotSeparated = separated
  reading.dotDecimals = decimals
  reading.dotGrouped = grouped
}

const setComma = (
  reading: NumberReading,
  value: number,
  integral: boolean,
  separated: boolean,
  decimals: number,
  grouped: boolean
): void => {
  if (!representable(value, integral)) return
  reading.conventions |= commaDecimal
  reading.commaValue = value
  reading.commaIntegral = integral
  reading.commaSeparated = separated
  reading.commaDecimals = decimals
  reading.commaGrouped = grouped
}

/** The value of a cell that inference accepted under `convention`; NaN when it does not read that way. */
export const numberUnder = (text: string, convention: NumberConvention, reading: NumberReading): number =>
  numberIn(text, 0, text.length, convention, reading)

/** `numberUnder` of `text` from `start` to `end`, without a string for the common forms. */
export const numberIn = (
  text: string,
  start: number,
  end: number,
  convention: NumberConvention,
  reading: NumberReading
): number => {
  // Pass 2 knows the convention, so the common forms skip the reading of the other one.
  if (end > start && mayStartANumber(text.charCodeAt(start))) {
    const integer = plainInteger(text, start, end)
    if (integer !== undefined) return integer
    if (convention === dotDecimal) {
      const decimal = plainDecimal(text, start, end, true)
      if (decimal !== undefined && Number.isFinite(decimal)) return decimal
    }
  }
  readNumberIn(text, start, end, reading, true)
  if ((reading.conventions & convention) === 0) return Number.NaN
  return convention === dotDecimal ? reading.dotValue : reading.commaValue
}
