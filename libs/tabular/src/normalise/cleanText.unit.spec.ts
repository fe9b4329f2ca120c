import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { isMissingToken, isPlainField, trimCell } from "./cleanText.ts"

/** Every kind of character `trim` removes, the first letters of the missing tokens, and plain ones. */
const unit = fc.constantFrom(" ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u1680", "\u2000", "\u200a", "\u2028", "\u2029",
  "\u202f", "\u205f", "\u3000", "\ufeff", "\u0085", "n", "N", "a", "/", "-", "1", "é", "\"")

describe("cleanText", () => {
  it("calls a field plain only when trimming leaves it as it is and it is no missing token", () => {
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 7 }), fc.string({ unit, maxLength: 3 }), fc.string({ unit, maxLength: 3 }), (cell, before, after) => {
        const text = before + cell + after
        const [start, end] = [before.length, before.length + cell.length]
        if (isPlainField(text, start, end)) expect([trimCell(cell), isMissingToken(cell)]).toEqual([cell, false])
        expect(isPlainField(text, ~start, end)).toBe(false)
      }),
      { numRuns: 5000 }
    )
    expect(isPlainField("x,1234,y", 2, 6)).toBe(true)
    expect(isPlainField("n/a,nopes", 4, 9)).toBe(true)
    expect(isPlainField("x,nope", 2, 6)).toBe(false)
  })
})
