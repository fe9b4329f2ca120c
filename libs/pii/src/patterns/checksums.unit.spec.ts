import { describe, expect, it } from "vitest"
import {
  abaRoutingValid,
  brazilianCpfValid,
  canadianSinValid,
  luhnValid,
  nhsNumberValid,
  ninoValid,
  npiValid,
  spanishIdValid,
  ssnPartsValid
} from "./checksums.ts"

// Published example values: card test numbers of the networks, NHS Digital's, CMS's and the Fed's examples.
describe("check digits", () => {
  it("Luhn accepts the networks' test cards and rejects a changed digit", () => {
    for (const card of ["4111111111111111", "5555555555554444", "378282246310005", "6011111111111117", "3530111333300000"]) {
      expect(luhnValid(card), card).toBe(true)
      expect(luhnValid(card.slice(0, -1) + String((Number(card.at(-1)) + 1) % 10)), card).toBe(false)
    }
    expect(luhnValid("4111-1111")).toBe(false)
  })

  it("validates NHS numbers by mod 11", () => {
    expect(nhsNumberValid("943 476 5919")).toBe(true)
    expect(nhsNumberValid("9434765919")).toBe(true)
    expect(nhsNumberValid("9434765918")).toBe(false)
    expect(nhsNumberValid("943476591")).toBe(false)
  })

  it("validates NPIs with the 80840 prefix", () => {
    expect(npiValid("1234567893")).toBe(true)
    expect(npiValid("1234567890")).toBe(false)
    expect(npiValid("3234567893")).toBe(false)
  })

  it("validates ABA routing numbers by weights 3-7-1 and Fed prefixes", () => {
    expect(abaRoutingValid("011000015")).toBe(true)
    expect(abaRoutingValid("021000021")).toBe(true)
    expect(abaRoutingValid("021000022")).toBe(false)
    expect(abaRoutingValid("991000013")).toBe(false)
  })

  it("validates Canadian SINs by Luhn", () => {
    expect(canadianSinValid("130 692 544")).toBe(true)
    expect(canadianSinValid("130-692-545")).toBe(false)
    // 0 and 8 are never issued to people (the CRA's sample 046 454 286 starts with 0).
    expect(canadianSinValid("046 454 286")).toBe(false)
  })

  it("applies the SSN never-issued ranges", () => {
    expect(ssnPartsValid("123", "45", "6789")).toBe(true)
    for (const [area, group, serial] of [["000", "12", "3456"], ["666", "12", "3456"], ["912", "12", "3456"], ["123", "00", "3456"], ["123", "45", "0000"]]) {
      expect(ssnPartsValid(area!, group!, serial!), `${area}-${group}-${serial}`).toBe(false)
    }
  })

  it("applies HMRC's National Insurance prefix and suffix rules", () => {
    expect(ninoValid("AB 12 34 56 C")).toBe(true)
    expect(ninoValid("QQ123456C")).toBe(false)
    expect(ninoValid("GB123456A")).toBe(false)
    expect(ninoValid("AB123456E")).toBe(false)
    expect(ninoValid("DA123456A")).toBe(false)
  })

  it("validates Spanish DNI/NIE letters and Brazilian CPF check digits", () => {
    expect(spanishIdValid("12345678Z")).toBe(true)
    expect(spanishIdValid("X1234567L")).toBe(true)
    expect(spanishIdValid("12345678A")).toBe(false)
    expect(brazilianCpfValid("529.982.247-25")).toBe(true)
    expect(brazilianCpfValid("52998224725")).toBe(true)
    expect(brazilianCpfValid("529.982.247-24")).toBe(false)
    expect(brazilianCpfValid("111.111.111-11")).toBe(false)
  })
})
