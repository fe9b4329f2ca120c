import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { maskOf, maskWriter, placeholderCount } from "./masks.ts"
import { heldMix } from "./mix.ts"

describe("masks", () => {
  it("a value written into its own mask from its letters and digits is the value again", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."aZ09#\\-. ,xY/+") }), (value) => {
        const compact = [...value].filter((character) => /[A-Za-z0-9]/.test(character)).join("")
        const mask = maskOf(value)
        expect(placeholderCount(mask)).toBe(compact.length)
        expect(maskWriter(mask)(compact)).toBe(value)
      })
    )
  })

  it("writes other characters in the placeholders' case", () => {
    expect(maskWriter(maskOf("ab 12 C"))("XY34z")).toBe("xy 34 Z")
    expect(maskOf("123-45-6789")).toBe("###-##-####")
  })
})

describe("held mixes", () => {
  it("keep only entries held by k rows, and count every row", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "b", "c", "d", "e"), { minLength: 1, maxLength: 200 }), fc.integer({ min: 1, max: 30 }), (items, k) => {
        const mix = heldMix(items, (item) => item, k)
        const counts = new Map<string, number>()
        for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1)
        for (const entry of mix) expect(counts.get(entry.value)).toBeGreaterThanOrEqual(k)
        if (mix.length > 0) expect(mix.reduce((sum, entry) => sum + entry.rows, 0)).toBe(items.length)
        else expect([...counts.values()].every((count) => count < k)).toBe(true)
      })
    )
  })

  it("do not depend on the rows' order", () => {
    const items = ["x", "y", "y", "z", "z", "z", "x", "w"]
    expect(heldMix([...items].reverse(), (item) => item, 2)).toEqual(heldMix(items, (item) => item, 2))
  })
})
