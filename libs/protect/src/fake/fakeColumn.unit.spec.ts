import { isCreditCardNumber, luhnValid, nhsNumberValid, npiValid, piiTypes, ssnPartsValid } from "@synth/pii"
import { describe, expect, it } from "vitest"
import type { FakeKind } from "../roles/ColumnPlan.ts"
import { detectorFor } from "./detectors.ts"
import { fakeColumn } from "./fakeColumn.ts"
import { maskOf } from "./masks.ts"
import { fakeValueKey, planFakeColumn } from "./planFakeColumn.ts"
import { realColumn } from "./testing/realColumns.ts"

const kinds: ReadonlyArray<FakeKind> = [...piiTypes, "identifier"]
const settings = { seed: 11, rareThreshold: 5, learnFromValues: true }

const fakesOf = (kind: FakeKind, rows = 400, outputRows = 600) => {
  const real = realColumn(kind, rows, 7)
  const { plan, realValues } = planFakeColumn({ name: `a ${kind} column`, type: real.type, kind, values: real.values }, settings)
  const fakes = fakeColumn(plan, outputRows, 3, realValues).filter((value): value is string => value !== null)
  return { real, plan, fakes }
}

describe("fakeColumn, for every kind", () => {
  it.each(kinds)("%s: fakes are recognised by the scan's detector when the real values were", (kind) => {
    const { real, plan, fakes } = fakesOf(kind)
    const detect = detectorFor(kind)
    if (detect === undefined) {
      expect(kind).toBe("identifier")
      return
    }
    // The real-looking columns are all recognisable: the plan must say so, and every fake must be too.
    expect(real.values.filter(detect).length).toBeGreaterThanOrEqual(0.9 * real.values.length)
    expect(plan.detectable).toBe(true)
    expect(fakes.filter((fake) => !detect(fake))).toEqual([])
  })

  it.each(kinds)("%s: no fake is a real value, however written", (kind) => {
    const { real, plan, fakes } = fakesOf(kind)
    const realKeys = new Set(real.values.map((value) => fakeValueKey(plan, value)))
    const realTexts = new Set(real.values)
    expect(fakes.filter((fake) => realTexts.has(fake) || realKeys.has(fakeValueKey(plan, fake)))).toEqual([])
  })

  it.each(kinds)("%s: fakes are distinct where the real values were", (kind) => {
    const { real, plan, fakes } = fakesOf(kind)
    const distinctReal = new Set(real.values).size === real.values.length
    expect(plan.unique).toBe(distinctReal || kind === "identifier")
    if (plan.unique) expect(new Set(fakes.map((fake) => fakeValueKey(plan, fake))).size).toBe(fakes.length)
  })

  it.each(kinds)("%s: a fake's key is the key of its text (the filter checks what later requests will recompute)", (kind) => {
    const { plan, fakes } = fakesOf(kind, 100, 200)
    const { realValues } = planFakeColumn({ name: `a ${kind} column`, type: plan.type, kind, values: fakes }, settings)
    // Faking again against a filter of these fakes: none of them may come back, which needs equal keys on both sides.
    const again = fakeColumn(plan, 200, 3, realValues)
    expect(again.filter((value) => value !== null && fakes.includes(value))).toEqual([])
  })
})

describe("fakes that carry a check are valid", () => {
  it("credit cards pass Luhn and an issuer's ranges", () => {
    const { fakes } = fakesOf("credit_card_number")
    for (const fake of fakes) {
      expect(isCreditCardNumber(fake)).toBe(true)
      expect(luhnValid(fake.replace(/\D/g, ""))).toBe(true)
    }
  })

  it("SSNs avoid the never-issued areas, groups and serials", () => {
    for (const fake of fakesOf("social_security_number").fakes) {
      const [area, group, serial] = fake.split("-")
      expect(ssnPartsValid(area!, group!, serial!)).toBe(true)
    }
  })

  it("NHS numbers and NPIs pass their check digits", () => {
    for (const fake of fakesOf("nhs_number").fakes) expect(nhsNumberValid(fake)).toBe(true)
    for (const fake of fakesOf("npi_number").fakes) expect(npiValid(fake)).toBe(true)
  })

  it("IBANs pass mod 97", () => {
    for (const fake of fakesOf("iban").fakes) {
      const compact = fake.replace(/\s/g, "")
      const rearranged = (compact.slice(4) + compact.slice(0, 4)).replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55))
      expect(BigInt(rearranged) % 97n).toBe(1n)
    }
  })

  it("check-digit types keep the real values' layouts", () => {
    for (const kind of ["social_security_number", "nhs_number", "canadian_social_insurance_number", "national_id_number", "uk_national_insurance_number"] as const) {
      const { real, fakes } = fakesOf(kind)
      const masks = new Set(real.values.map(maskOf))
      expect(fakes.filter((fake) => !masks.has(maskOf(fake)))).toEqual([])
    }
  })
})
