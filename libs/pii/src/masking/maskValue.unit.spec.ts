import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { piiTypes } from "../types.ts"
import { maskValue } from "./maskValue.ts"

describe("maskValue", () => {
  it.each([
    ["email_address", "john.doe@example.com", "j***@e***.com"],
    ["social_security_number", "123-45-6789", "***-**-6789"],
    ["credit_card_number", "4111 1111 1111 1234", "**** **** **** 1234"],
    ["iban", "DE89 3704 0044 0532 0130 00", "DE** **** **** 3000"],
    ["phone_number", "+1 415-555-2671", "+* ***-***-**71"],
    ["person_name", "Ada Lovelace", "A*** L***"],
    ["date_of_birth", "1985-03-14", "1985-**-**"],
    ["ip_address", "192.168.10.1", "192.*.*.*"],
    ["us_zip_code", "94103", "941**"],
    ["uk_postcode", "SW1A 1AA", "SW1A ***"],
    ["geo_coordinates", "40.71280, -74.00600", "40.7, -74.0"],
    // Found by the property below: mostly punctuation, or a value that is its own shape, prints as stars.
    ["uk_postcode", "A.+--++-@x", "**********"],
    [null, "Axxxxxxxxx", "**********"],
    [null, "Order 12345", "Oxxxx #####"]
  ] as const)("%s %s → %s", (type, value, masked) => {
    expect(maskValue(type, value)).toBe(masked)
  })

  it("never returns an identifier longer than 8 characters whole, nor more than 4 of its characters in a row", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...piiTypes.filter((type) => type !== "geo_coordinates" && type !== "date_of_birth"), null),
        fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .@+-]{8,30}[A-Za-z0-9]$/),
        (type, value) => {
          const masked = maskValue(type, value)
          expect(masked.includes(value)).toBe(false)
          const compact = value.replace(/[^A-Za-z0-9]/g, "")
          // What a reader sees: runs of letters and digits between masks and separators.
          const runs = masked.split(/[^A-Za-z0-9]+/)
          for (let start = 0; start + 5 <= compact.length; start++) {
            expect(runs.some((run) => run.includes(compact.slice(start, start + 5)))).toBe(false)
          }
        }
      ),
      { numRuns: 500 }
    )
  })
})
