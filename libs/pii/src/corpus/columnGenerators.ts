import { type Faker, fakerDE, fakerEN_CA, fakerEN_GB, fakerEN_US, fakerES, fakerFR, fakerIT, fakerNL, fakerPT_BR } from "@faker-js/faker"
import type { PiiType } from "../types.ts"
import * as valid from "./validValues.ts"
import type { Draw } from "./validValues.ts"

/** One kind of generated column: its label, realistic names, and a value per row. */
export interface ColumnGenerator {
  readonly label: PiiType | null
  readonly names: ReadonlyArray<string>
  /** Locales whose data this column is (NHS numbers are British, SSNs American...); any when absent. */
  readonly locales?: ReadonlyArray<Faker>
  readonly value: (faker: Faker, draw: Draw) => string
  /**
   * Values drawn from a pool of this column's own (cities, categories: a few values repeated over the rows, as real
   * tables have them): `pool` gives the pool, and rows draw from it with weights 1/rank (Zipf). Absent: `value` per row.
   */
  readonly pool?: (faker: Faker, draw: Draw) => ReadonlyArray<string>
}

export const allLocales: ReadonlyArray<Faker> = [fakerEN_US, fakerEN_GB, fakerEN_CA, fakerDE, fakerFR, fakerES, fakerIT, fakerNL, fakerPT_BR]

const isoDate = (date: Date) => date.toISOString().slice(0, 10)

/**
 * The day the corpus's dates are drawn back from (birth dates, recent events): fixed, so the corpus and the model
 * trained on it are the same bytes whatever day they are generated (faker counts back from now by default).
 */
const corpusToday = new Date(Date.UTC(2026, 5, 1))

/** Distinct values of `make`, `count` of them at most (fewer when `make` repeats itself). */
const distinct = (count: number, make: () => string): ReadonlyArray<string> => {
  const values = new Set<string>()
  for (let attempt = 0; attempt < count * 4 && values.size < count; attempt++) values.add(make())
  return [...values]
}

/** A town of the locale: a real one from faker's list where it has one, else faker's generated place name. */
const cityOf = (faker: Faker, draw: Draw): string => {
  const real = faker.rawDefinitions.location?.city_name
  if (real !== undefined && real !== null && real.length > 0 && draw.integer(0, 1) === 0) return draw.pick(real)
  return faker.location.city()
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/** Unix times of events over one to three years before a date in 2018-2025, in seconds or milliseconds. */
const unixTime = (draw: Draw, perSecond: 1 | 1000) => {
  const end = 1_514_764_800 + draw.integer(0, 8) * 31_556_952
  const seconds = end - draw.integer(0, 3 * 31_556_952)
  return perSecond === 1 ? String(seconds) : String(seconds * 1000 + draw.integer(0, 999))
}

/** The phone region of a faker locale (`en_GB` → GB, `de` → DE, `pt_BR` → BR). */
const regionOf = (faker: Faker) => {
  const code = faker.getMetadata().code ?? "en_US"
  const region = code.includes("_") ? code.split("_")[1]! : code
  return region.toUpperCase()
}

export const columnGenerators: ReadonlyArray<ColumnGenerator> = [
  {
    label: "person_name",
    names: ["name", "full_name", "customerName", "Name", "nombre_completo", "nome", "Kundenname", "contact_name", "cardholder", "patient_name", "naam"],
    value: (faker) => faker.person.fullName()
  },
  {
    label: "person_name",
    names: ["first_name", "firstName", "fname", "Vorname", "prenom", "nombre", "voornaam", "given_name", "first", "First", "given"],
    value: (faker) => faker.person.firstName()
  },
  {
    label: "person_name",
    names: ["last_name", "lastName", "surname", "Nachname", "nom_de_famille", "apellido", "cognome", "achternaam", "sobrenome", "last", "Last", "family"],
    value: (faker) => faker.person.lastName()
  },
  {
    // Names under a word that says only whose they are: the values must carry the decision.
    label: "person_name",
    names: ["employee", "who", "manager", "contact", "customer", "author", "assigned_to", "sales_rep", "Mitarbeiter", "Kunde", "cliente", "klant", "responsable", "patient"],
    value: (faker) => faker.person.fullName()
  },
  {
    label: "email_address",
    names: ["email", "E-Mail", "customer_email", "courriel", "correo_electronico", "emailAddress", "mail", "contact.email"],
    value: (faker) => faker.internet.email()
  },
  {
    label: "phone_number",
    names: ["phone", "telephone", "mobile", "Telefonnummer", "telefono", "tel", "phone_number", "celular", "cell"],
    value: (faker, draw) => valid.phoneNumber(draw, regionOf(faker))
  },
  {
    label: "social_security_number",
    names: ["ssn", "SSN", "social_security_number", "socialSecurity", "ss_number"],
    locales: [fakerEN_US],
    value: (_, draw) => valid.ssn(draw, draw.integer(0, 9) < 7)
  },
  {
    label: "passport_number",
    names: ["passport", "passport_number", "passportNo", "Reisepassnummer", "pasaporte", "numero_passeport"],
    value: (faker, draw) => (draw.integer(0, 1) === 0 ? draw.digits(9) : `${faker.string.alpha({ length: draw.integer(1, 2), casing: "upper" })}${draw.digits(7)}`)
  },
  {
    label: "drivers_license_number",
    names: ["drivers_license", "driver_license_number", "dl_number", "license_number", "Fuehrerschein", "permis_de_conduire"],
    value: (faker, draw) =>
      draw.pick([
        () => `${faker.string.alpha({ length: 1, casing: "upper" })}${draw.digits(7)}`,
        () => `${faker.string.alpha({ length: 1, casing: "upper" })}${draw.digits(3)}-${draw.digits(4)}-${draw.digits(4)}`,
        () => draw.digits(draw.integer(8, 9))
      ])()
  },
  {
    label: "uk_national_insurance_number",
    names: ["nino", "ni_number", "national_insurance_number", "NI No"],
    locales: [fakerEN_GB],
    value: (_, draw) => valid.nino(draw)
  },
  {
    label: "nhs_number",
    names: ["nhs_number", "NHS No", "nhsNumber", "nhs"],
    locales: [fakerEN_GB],
    value: (_, draw) => valid.nhsNumber(draw)
  },
  {
    label: "canadian_social_insurance_number",
    names: ["sin", "SIN", "social_insurance_number", "nas"],
    locales: [fakerEN_CA],
    value: (_, draw) => valid.canadianSin(draw)
  },
  {
    label: "national_id_number",
    names: ["dni", "DNI"],
    locales: [fakerES],
    value: (_, draw) => valid.spanishDni(draw)
  },
  {
    label: "national_id_number",
    names: ["cpf", "CPF", "numero_cpf"],
    locales: [fakerPT_BR],
    value: (_, draw) => valid.brazilianCpf(draw)
  },
  {
    label: "date_of_birth",
    names: ["dob", "date_of_birth", "birthDate", "Geburtsdatum", "date_de_naissance", "fecha_nacimiento", "data_di_nascita", "geboortedatum", "birthday"],
    value: (faker) => isoDate(faker.date.birthdate({ mode: "age", min: 18, max: 90, refDate: corpusToday }))
  },
  {
    label: "ip_address",
    names: ["ip", "ip_address", "client_ip", "ipAddress", "remote_addr", "adresse_ip"],
    value: (faker, draw) => (draw.integer(0, 4) === 0 ? faker.internet.ipv6() : faker.internet.ipv4())
  },
  {
    label: "mac_address",
    names: ["mac", "mac_address", "device_mac", "macAddress"],
    value: (faker) => faker.internet.mac({ separator: faker.helpers.arrayElement([":", "-"]) })
  },
  {
    label: "url",
    names: ["website", "url", "homepage", "profile_url", "link"],
    value: (faker) => faker.internet.url()
  },
  {
    label: "username",
    names: ["username", "user_name", "login", "handle", "screen_name", "Benutzername", "pseudo", "usuario"],
    value: (faker) => faker.internet.username()
  },
  {
    label: "credit_card_number",
    names: ["credit_card", "card_number", "ccn", "cc_number", "Kreditkartennummer", "numero_de_carte", "tarjeta_credito", "pan"],
    value: (faker) => faker.finance.creditCardNumber(faker.helpers.arrayElement(["visa", "mastercard", "amex", "discover", "jcb"])).replace(/-/g, faker.helpers.arrayElement(["", " ", "-"]))
  },
  {
    label: "iban",
    names: ["iban", "IBAN", "bank_iban", "iban_code"],
    value: (faker) => faker.finance.iban({ formatted: faker.datatype.boolean() })
  },
  {
    label: "bank_routing_number",
    names: ["routing_number", "aba", "routingNumber", "aba_routing", "rtn"],
    locales: [fakerEN_US],
    value: (_, draw) => valid.abaRoutingNumber(draw)
  },
  {
    label: "bank_account_number",
    names: ["account_number", "bank_account", "acct_no", "Kontonummer", "numero_de_cuenta", "rekeningnummer"],
    value: (faker, draw) => faker.finance.accountNumber(draw.integer(8, 12))
  },
  {
    label: "crypto_wallet_address",
    names: ["wallet", "wallet_address", "btc_address", "eth_address", "crypto_address"],
    value: (faker, draw) => (draw.integer(0, 1) === 0 ? faker.finance.ethereumAddress() : valid.bitcoinAddress(draw))
  },
  {
    label: "medical_record_number",
    names: ["mrn", "MRN", "medical_record_number", "patient_id", "chart_number", "Patientennummer"],
    value: (_, draw) => (draw.integer(0, 1) === 0 ? `MRN-${draw.digits(7)}` : draw.digits(8))
  },
  {
    label: "icd10_code",
    names: ["icd10", "diagnosis_code", "icd_code", "dx_code", "diagnosis"],
    value: (_, draw) => valid.icd10Code(draw)
  },
  {
    label: "npi_number",
    names: ["npi", "NPI", "provider_npi", "npi_number"],
    locales: [fakerEN_US],
    value: (_, draw) => valid.npiNumber(draw)
  },
  {
    label: "street_address",
    names: ["address", "street_address", "addr", "Strasse", "adresse", "direccion", "indirizzo", "adres", "endereco", "address_line_1", "home_address"],
    value: (faker) => faker.location.streetAddress()
  },
  {
    label: "us_zip_code",
    names: ["zip", "zip_code", "zipcode", "postal_code"],
    locales: [fakerEN_US],
    value: (faker, draw) => (draw.integer(0, 4) === 0 ? faker.location.zipCode("#####-####") : faker.location.zipCode("#####"))
  },
  {
    label: "uk_postcode",
    names: ["postcode", "post_code", "postal_code", "PostCode"],
    locales: [fakerEN_GB],
    value: (faker) => faker.location.zipCode()
  },
  {
    label: "city",
    names: ["city", "City", "town", "Ort", "Stadt", "Wohnort", "ville", "ciudad", "localidad", "citta", "cidade", "plaats", "woonplaats", "municipality", "customer_city", "billing_city", "hometown"],
    value: (faker, draw) => cityOf(faker, draw),
    pool: (faker, draw) => distinct(draw.integer(4, 40), () => cityOf(faker, draw))
  },
  {
    label: "geo_coordinates",
    names: ["location", "coordinates", "lat_lng", "gps", "geo"],
    value: (faker) => `${faker.location.latitude({ precision: 5 })}, ${faker.location.longitude({ precision: 5 })}`
  },
  // Decoys: values that look like personal data to a careless detector, and ordinary columns.
  { label: null, names: ["order_number", "order_id", "orderNo", "Bestellnummer"], value: (_, draw) => draw.pick([`ORD-${draw.digits(8)}`, `#${draw.digits(6)}`, `SO${draw.digits(7)}`]) },
  { label: null, names: ["sku", "product_code", "item_code", "Artikelnummer"], value: (faker, draw) => `${faker.string.alpha({ length: 3, casing: "upper" })}-${draw.digits(4)}-${faker.string.alpha({ length: 2, casing: "upper" })}` },
  { label: null, names: ["transaction_id", "reference", "ref_id", "tracking_number"], value: (_, draw) => valid.notLuhn16(draw) },
  { label: null, names: ["version", "app_version", "firmware", "release"], value: (_, draw) => Array.from({ length: draw.integer(2, 4) }, () => String(draw.integer(0, 20))).join(".") },
  { label: null, names: ["product", "product_name", "item", "Produkt"], value: (faker) => faker.commerce.productName() },
  { label: null, names: ["price", "amount", "total", "Preis"], value: (faker) => faker.commerce.price() },
  { label: null, names: ["quantity", "qty", "units", "Menge"], value: (_, draw) => String(draw.integer(1, 40)) },
  { label: null, names: ["status", "state", "order_status"], value: (_, draw) => draw.pick(["pending", "shipped", "delivered", "cancelled", "returned"]) },
  { label: null, names: ["uuid", "event_id", "request_id"], value: (faker) => faker.string.uuid() },
  { label: null, names: ["created_at", "order_date", "updated_at", "event_date"], value: (faker) => isoDate(faker.date.recent({ days: 400, refDate: corpusToday })) },
  { label: null, names: ["comment", "notes", "description", "feedback"], value: (faker) => faker.lorem.sentence() },
  { label: null, names: ["company", "company_name", "employer_name", "merchant"], value: (faker) => faker.company.name() },
  { label: null, names: ["country", "pays", "Land"], value: (faker) => faker.location.country(), pool: (faker, draw) => distinct(draw.integer(3, 30), () => faker.location.country()) },
  { label: null, names: ["state", "region", "province", "Bundesland"], value: (faker) => faker.location.state(), pool: (faker, draw) => distinct(draw.integer(3, 20), () => faker.location.state()) },
  { label: null, names: ["color", "colour", "Farbe"], value: (faker) => faker.color.human() },
  { label: null, names: ["color", "colour", "Farbe", "finish"], value: (faker) => capitalise(faker.color.human()), pool: (faker, draw) => distinct(draw.integer(3, 15), () => capitalise(faker.color.human())) },
  { label: null, names: ["department", "category", "segment"], value: (faker) => faker.commerce.department() },
  { label: null, names: ["brand", "supplier", "vendor", "Hersteller"], value: (faker) => faker.company.name(), pool: (faker, draw) => distinct(draw.integer(3, 25), () => faker.company.name()) },
  { label: null, names: ["job_title", "position", "role"], value: (faker) => faker.person.jobTitle() },
  { label: null, names: ["created_ts", "event_time", "epoch", "timestamp", "ts", "updated_unix", "logged"], value: (_, draw) => unixTime(draw, 1) },
  { label: null, names: ["created_ms", "event_ts", "time_ms", "timestamp_ms", "clicked_at"], value: (_, draw) => unixTime(draw, 1000) },
  { label: null, names: ["visits", "population", "steps", "page_views", "Einwohner"], value: (_, draw) => String(draw.integer(10_000, 99_999)) },
  { label: null, names: ["temperature", "ratio", "weight_kg", "elevation", "Messwert"], value: (_, draw) => (draw.integer(-8_999, 8_999) / 100).toFixed(draw.integer(2, 5)) },
  { label: null, names: ["first", "last", "who"], value: (_, draw) => draw.pick(["Yes", "No"]) },
  { label: null, names: ["score", "rating", "satisfaction"], value: (_, draw) => (draw.integer(0, 1000) / 100).toFixed(2) },
  { label: null, names: ["plan", "tier", "membership"], value: (_, draw) => draw.pick(["free", "basic", "pro", "enterprise"]) }
]

/** Names that say nothing: in about a quarter of the columns, the values alone must carry the decision. */
export const uninformativeNames = ["col_{n}", "field{n}", "value_{n}", "attr{n}", "c{n}", "data_{n}", "x{n}", "column{n}"]
