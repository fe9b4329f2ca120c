import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { classifyNumberText, commaDecimal, dotDecimal, emptyNumberReading, numberUnder, readNumberText } from "./numberText.ts"

/** The forms the hand-written plain-decimal path reads, as the regular expressions define them. */
const plainNumber = /^[+-]?(?:(?:0|[1-9]\d*)(\.\d*)?|(\.\d+))([eE][+-]?\d+)?$/
const singleDotGroup = /^[+-]?[1-9]\d{0,2}\.\d{3}$/

const decimalLike = fc
  .tuple(
    fc.constantFrom("", "-", "+"),
    fc.stringMatching(/^\d{0,12}$/),
    fc.constantFrom(".", "", ".."),
    fc.stringMatching(/^\d{0,12}$/)
  )
  .map((parts) => parts.join(""))

describe("numberText", () => {
  it("reads plain decimals exactly as Number() does, and the rest as before", () => {
    const reading = emptyNumberReading()
    fc.assert(
      fc.property(fc.oneof(decimalLike, fc.double({ noNaN: true }).map(String)), (text) => {
        readNumberText(text, reading)
        const integral = !/[.eE]/.test(text)
        const plain = plainNumber.test(text) &&
          (integral ? Number.isSafeInteger(Number(text)) : Number.isFinite(Number(text)))
        expect((reading.conventions & dotDecimal) !== 0).toBe(plain)
        if (plain) {
          expect(Object.is(reading.dotValue, Number(text))).toBe(true)
          expect(Object.is(numberUnder(text, dotDecimal, emptyNumberReading()), Number(text))).toBe(true)
        }
        if (plain && singleDotGroup.test(text)) expect(reading.commaValue).toBe(Number(text.replace(".", "")))
      }),
      { numRuns: 5000 }
    )
  })

  it("classifies as it reads, leaving out only the value of long plain decimals", () => {
    const exact = emptyNumberReading()
    const classified = emptyNumberReading()
    const longDecimal = fc
      .tuple(fc.constantFrom("", "-", "+"), fc.stringMatching(/^(0|[1-9]\d{0,320})$/), fc.stringMatching(/^\d{0,40}$/))
      .map(([sign, integer, fraction]) => `${sign}${integer}.${fraction}`)
    fc.assert(
      fc.property(fc.oneof(decimalLike, longDecimal, fc.double({ noNaN: true }).map(String)), (text) => {
        readNumberText(text, exact)
        classifyNumberText(text, classified)
        expect(classified.conventions).toBe(exact.conventions)
        if ((exact.conventions & dotDecimal) !== 0) {
          expect([classified.dotIntegral, classified.dotSeparated]).toEqual([exact.dotIntegral, exact.dotSeparated])
          if (!Number.isNaN(classified.dotValue)) expect(Object.is(classified.dotValue, exact.dotValue)).toBe(true)
          else expect(exact.dotIntegral).toBe(false)
        }
        if ((exact.conventions & commaDecimal) !== 0) {
          expect([classified.commaValue, classified.commaIntegral, classified.commaSeparated])
            .toEqual([exact.commaValue, exact.commaIntegral, exact.commaSeparated])
        }
      }),
      { numRuns: 5000 }
    )
  })

  it("reads long decimals and dot groups", () => {
    const reading = emptyNumberReading()
    expect(readNumberText("0.12345678901234567", reading)).toMatchObject({ conventions: dotDecimal, dotValue: Number("0.12345678901234567") })
    expect(readNumberText("-1.234", reading)).toMatchObject({
      conventions: dotDecimal | commaDecimal,
      dotValue: -1.234,
      commaValue: -1234,
      commaSeparated: true
    })
    expect(readNumberText("01.5", reading).conventions).toBe(0)
    expect(readNumberText(".", reading).conventions).toBe(0)
    expect(numberUnder("1.234", commaDecimal, reading)).toBe(1234)
  })
})
