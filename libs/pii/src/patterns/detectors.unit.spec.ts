import { describe, expect, it } from "vitest"
import type { PiiType } from "../types.ts"
import { patternDetectors } from "./detectors.ts"

/** The types whose checksum or strict-format detectors accept the value. */
const strongTypes = (value: string): ReadonlyArray<PiiType> =>
  patternDetectors.filter((detector) => detector.strength !== "loose_format" && detector.matches(value)).map((detector) => detector.type)

describe("pattern detectors", () => {
  it.each<[string, PiiType]>([
    ["ada.lovelace@example.com", "email_address"],
    ["123-45-6789", "social_security_number"],
    ["+44 20 7946 0958", "phone_number"],
    ["(415) 555-2671", "phone_number"],
    ["4111 1111 1111 1111", "credit_card_number"],
    ["GB82 WEST 1234 5698 7654 32", "iban"],
    ["DE89370400440532013000", "iban"],
    ["192.168.10.1", "ip_address"],
    ["2001:db8::8a2e:370:7334", "ip_address"],
    ["00:1A:2B:3C:4D:5E", "mac_address"],
    ["https://example.com/users/ada", "url"],
    ["SW1A 1AA", "uk_postcode"],
    ["40.71280, -74.00600", "geo_coordinates"],
    ["AB 12 34 56 C", "uk_national_insurance_number"],
    ["943 476 5919", "nhs_number"],
    ["130 692 544", "canadian_social_insurance_number"],
    ["011000015", "bank_routing_number"],
    ["1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "crypto_wallet_address"],
    ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "crypto_wallet_address"],
    ["0x52908400098527886E0F7030069857D2E4169EE7", "crypto_wallet_address"],
    ["MRN-0048213", "medical_record_number"],
    ["E11.9", "icd10_code"],
    ["1234567893", "npi_number"],
    ["529.982.247-25", "national_id_number"]
  ])("%s is a %s", (value, type) => {
    expect(strongTypes(value)).toContain(type)
  })

  it.each([
    "ORD-12345678",
    "SKU-AB-1234",
    "4111111111111112",
    "9283746501928374",
    "2.14.3",
    "Widget Pro 3000",
    "000-12-3456",
    "1BoatSLRHtKNngkdXEeobR76b53LETtpyU",
    "2024-05-06",
    "hello world"
  ])("%s passes no checksum or strict detector", (value) => {
    expect(strongTypes(value)).toEqual([])
  })

  it.each(["40.712776", "-33.868820", "151.209290", "+48.8566"])("the decimal %s is no phone number (a coordinate or a measurement)", (value) => {
    expect(strongTypes(value)).not.toContain("phone_number")
    expect(patternDetectors.filter((detector) => detector.type === "phone_number").some((detector) => detector.matches(value))).toBe(false)
  })

  it("keeps dotted phone numbers: two dots or more are a phone's separators", () => {
    expect(strongTypes("415.555.2671")).toContain("phone_number")
  })

  it("takes place-name words for a city shape, and not products or colours", () => {
    const city = patternDetectors.find((detector) => detector.type === "city")!
    for (const value of ["Springfield", "Saint-Denis", "Mollet del Vallés", "L'Aquila", "Frankfurt am Main"]) expect(city.matches(value), value).toBe(true)
    for (const value of ["Gorgeous Granite Chair", "Red", "Electronics", "12 Oak Street", "berlin"]) expect(city.matches(value), value).toBe(false)
  })

  it("cannot tell a four-part version string from an IPv4 address by value: the column name decides", () => {
    expect(strongTypes("1.2.3.4")).toEqual(["ip_address"])
  })
})
