import { describe, expect, it } from "vitest"
import { coordinatePairs } from "./neighbours.ts"
import { nameHint, nameWords } from "./columnName.ts"

describe("nameWords", () => {
  it("splits snake, camel, kebab, dotted and digit boundaries and drops accents", () => {
    expect(nameWords("customerEmailAddress")).toEqual(["customer", "email", "address"])
    expect(nameWords("Date_of-Birth.v2")).toEqual(["date", "of", "birth", "v", "2"])
    expect(nameWords("Prénom")).toEqual(["prenom"])
    expect(nameWords("SSNNumber")).toEqual(["ssn", "number"])
  })
})

describe("nameHint", () => {
  it.each([
    ["email", "email_address", "exact"],
    ["customer_email", "email_address", "exact"],
    ["courriel", "email_address", "exact"],
    ["correo_electronico", "email_address", "exact"],
    ["Telefonnummer", "phone_number", "exact"],
    ["Geburtsdatum", "date_of_birth", "exact"],
    ["data_di_nascita", "date_of_birth", "exact"],
    ["geboortedatum", "date_of_birth", "exact"],
    ["patient.dob", "date_of_birth", "exact"],
    ["SSN", "social_security_number", "exact"],
    ["prenom", "person_name", "exact"],
    ["achternaam", "person_name", "exact"],
    ["cognome", "person_name", "exact"],
    ["codice_fiscale", "national_id_number", "exact"],
    ["PLZ", "us_zip_code", "exact"],
    ["emergency_contact_phone", "phone_number", "partial"],
    ["kundenemail", "email_address", "partial"],
    ["city", "city", "exact"],
    ["billing_city", "city", "exact"],
    ["Wohnort", "city", "exact"],
    ["ville", "city", "exact"],
    ["ciudad", "city", "exact"],
    ["citta", "city", "exact"],
    ["cidade", "city", "exact"],
    ["woonplaats", "city", "exact"],
    ["municipality", "city", "exact"],
    ["Ort", "city", "exact"],
    ["city_name", "city", "exact"],
    ["Heimatstadt", "city", "partial"],
    ["employee", "person_name", "role"],
    ["who", "person_name", "role"],
    ["account_manager", "person_name", "role"],
    ["assigned_to", "person_name", "role"],
    ["first", "person_name", "role"],
    ["last", "person_name", "role"],
    ["Mitarbeiter", "person_name", "role"]
  ])("%s → %s (%s)", (name, type, strength) => {
    const hint = nameHint(name)
    expect(hint?.types).toContain(type)
    expect(hint?.strength).toBe(strength)
  })

  it("prefers the longest phrase: an email address is not a street address", () => {
    expect(nameHint("email_address")?.types).toEqual(["email_address"])
    expect(nameHint("ip_address")?.types).toEqual(["ip_address"])
  })

  it.each(["PhoneService", "zip_file", "email_count", "order_number", "product_name", "company_name", "app_version", "is_email_verified", "created_at", "sku"])(
    "%s gives no personal-data hint",
    (name) => {
      const hint = nameHint(name)
      expect(hint === undefined || !hint.types.includes("person_name") || name !== "product_name").toBe(true)
      if (name !== "product_name" && name !== "company_name") expect(hint).toBeUndefined()
      else expect(hint?.types ?? []).not.toContain("person_name")
    }
  )
})

describe("what a name does not say", () => {
  it.each(["customer_id", "last_login", "employee_count", "manager_level", "first_purchase_date", "who_cares_score"])(
    "%s is no role hint for a person's name",
    (name) => {
      expect(nameHint(name)?.strength).not.toBe("role")
    }
  )

  it.each(["market_cap", "sin_theta", "pan_size", "web_traffic", "sort_order"])("%s gives no hint from a short word inside it", (name) => {
    expect(nameHint(name)).toBeUndefined()
  })

  it.each(["created_ts", "event_time", "epoch", "timestamp_ms", "unix_seconds"])("%s names times: no hint at all", (name) => {
    expect(nameHint(name)).toBeUndefined()
  })

  it("keeps city names of things apart from people: `city_name` is a city, not a person's name", () => {
    expect(nameHint("city_name")?.types).toEqual(["city"])
    expect(nameHint("employer_name")?.types ?? []).not.toContain("person_name")
  })
})

describe("coordinatePairs", () => {
  it("pairs a latitude and a longitude column of decimal degrees in range", () => {
    const column = (name: string, values: ReadonlyArray<string>) => ({ name, kind: "float" as const, values })
    expect(coordinatePairs([column("lat", ["40.7128", "51.5074"]), column("lng", ["-74.006", "-0.1278"])])).toEqual([["lat", "lng"]])
    expect(coordinatePairs([column("lat", ["140.5", "51.5"]), column("lng", ["-74.006", "-0.1278"])])).toEqual([])
  })
})
