import { describe, expect, it } from "@effect/vitest"
import { BooleanSpellings } from "../infer/BooleanSpellings.ts"
import { oneZero, trueFalse, yesNo, yN } from "../infer/booleanText.ts"
import { dateWriter, instantWriter, parseOffset } from "./dateLayout.ts"
import { numberWriter, plainFloatText } from "./numberForm.ts"

const spellings = (cells: ReadonlyArray<string>) => {
  const counted = new BooleanSpellings()
  for (const cell of cells) counted.observe(cell)
  return counted
}

describe("boolean spellings", () => {
  it("takes the most frequent spelling of each value, the first seen on a tie", () => {
    expect(spellings(["Yes", "yes", "Yes", "no", "NO", "NO"]).resolve(yesNo)).toEqual({ trueText: "Yes", falseText: "NO" })
    expect(spellings(["yes", "Yes", "no"]).resolve(yesNo)).toEqual({ trueText: "yes", falseText: "no" })
  })

  it("writes a value the column never held in the case of the other", () => {
    expect(spellings(["YES", "YES"]).resolve(yesNo)).toEqual({ trueText: "YES", falseText: "NO" })
    expect(spellings(["False"]).resolve(trueFalse)).toEqual({ trueText: "True", falseText: "False" })
    expect(spellings(["y"]).resolve(yN)).toEqual({ trueText: "y", falseText: "n" })
    expect(spellings(["N"]).resolve(yN)).toEqual({ trueText: "Y", falseText: "N" })
    expect(spellings(["0"]).resolve(oneZero)).toEqual({ trueText: "1", falseText: "0" })
  })
})

describe("date layouts", () => {
  const at = (iso: string) => Date.parse(iso)

  it("writes each token, padded or not", () => {
    expect(dateWriter("M/D/YYYY")(Date.UTC(2024, 0, 5) / 86_400_000)).toBe("1/5/2024")
    expect(dateWriter("DD.MM.YYYY")(Date.UTC(1999, 11, 31) / 86_400_000)).toBe("31.12.1999")
    expect(dateWriter("YYYY-MM-DD")(Date.UTC(812, 1, 3) / 86_400_000)).toBe("0812-02-03")
    expect(instantWriter("YYYY-MM-DDTHH:mm:ss.SSSZ")(at("2024-01-02T03:04:05.006Z"))).toBe("2024-01-02T03:04:05.006Z")
    expect(instantWriter("YYYY-MM-DD H:mm:ss.SSSSSS")(at("2024-01-02T03:04:05.5Z"))).toBe("2024-01-02 3:04:05.500000")
  })

  it("writes 12-hour times with AM/PM (midnight 12 AM, noon 12 PM)", () => {
    const write = instantWriter("M/D/YYYY h:mm A")
    expect(write(at("2024-03-01T00:05:00Z"))).toBe("3/1/2024 12:05 AM")
    expect(write(at("2024-03-01T12:00:00Z"))).toBe("3/1/2024 12:00 PM")
    expect(write(at("2024-03-01T23:59:00Z"))).toBe("3/1/2024 11:59 PM")
    expect(instantWriter("hh:mma")(at("2024-03-01T09:30:00Z"))).toBe("09:30am")
  })

  it("writes instants in the column's offset", () => {
    const minutes = parseOffset("-05:30")!
    expect(minutes).toBe(-330)
    expect(instantWriter("YYYY-MM-DDTHH:mmXXX", minutes)(at("2024-01-01T03:00:00Z"))).toBe("2023-12-31T21:30-05:30")
    expect(instantWriter("YYYY-MM-DD HH:mmXX", 120)(at("2024-01-01T03:00:00Z"))).toBe("2024-01-01 05:00+0200")
    expect(instantWriter("HH:mmX", 60)(at("2024-01-01T03:00:00Z"))).toBe("04:00+01")
    expect(parseOffset("+2")).toBeUndefined()
  })
})

describe("number forms", () => {
  it("pads to the fewest decimals written and rounds to the most", () => {
    expect(plainFloatText(12.5, { minDecimals: 2, maxDecimals: 2 })).toBe("12.50")
    expect(plainFloatText(3, { minDecimals: 2, maxDecimals: 2 })).toBe("3.00")
    expect(plainFloatText(57, { minDecimals: 0, maxDecimals: 2 })).toBe("57")
    expect(plainFloatText(0.123456, { minDecimals: 0, maxDecimals: 2 })).toBe("0.12")
    expect(plainFloatText(-0.001, { minDecimals: 0, maxDecimals: 2 })).toBe("0")
    expect(plainFloatText(1e-7, { minDecimals: 2, maxDecimals: Number.POSITIVE_INFINITY })).toBe("1e-7")
  })

  it("writes the decimal comma and thousands separators", () => {
    const euro = numberWriter({ decimalMark: ",", groupMark: ".", minDecimals: 2, maxDecimals: 2 }, false)
    expect([1234.5, -1000, 999.99, 1234567.891].map(euro)).toEqual(["1.234,50", "-1.000,00", "999,99", "1.234.567,89"])
    const counts = numberWriter({ decimalMark: ".", groupMark: ",", minDecimals: 0, maxDecimals: Number.POSITIVE_INFINITY }, true)
    expect([0, 999, 1000, -1234567, 9007199254740991].map(counts)).toEqual(["0", "999", "1,000", "-1,234,567", "9,007,199,254,740,991"])
  })
})
