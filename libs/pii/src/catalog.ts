import type { PiiCategory, PiiType } from "./types.ts"

export type Sensitivity = "high" | "medium" | "low"

export interface PiiTypeInfo {
  readonly category: PiiCategory
  readonly label: string
  /**
   * high: identifies a person or opens an account by itself (government ids, cards, bank and health ids);
   * medium: reaches or locates a person (email, phone, name, address, birth date); low: identifies only with more.
   */
  readonly sensitivity: Sensitivity
  readonly recommendation: string
}

const drop = "Drop the column before training: synthetic data gains nothing from it and it must not be memorised."
const pseudonymise =
  "Replace it with a random token (keep a key only if you must re-link) or drop it before training; never let a model learn the real values."

/** What each type is and what to do about it before synthetic data is trained on the table. */
export const piiCatalog: Readonly<Record<PiiType, PiiTypeInfo>> = {
  person_name: { category: "personal_identifier", label: "person name", sensitivity: "medium", recommendation: `${pseudonymise} Let the generator draw names from a fake-name provider if the output needs them.` },
  email_address: { category: "personal_identifier", label: "email address", sensitivity: "medium", recommendation: `${pseudonymise} Generated data can use fake addresses on a reserved domain (example.com).` },
  phone_number: { category: "personal_identifier", label: "phone number", sensitivity: "medium", recommendation: `${pseudonymise} Keep only the country code if the distribution matters.` },
  social_security_number: { category: "personal_identifier", label: "US social security number", sensitivity: "high", recommendation: drop },
  passport_number: { category: "personal_identifier", label: "passport number", sensitivity: "high", recommendation: drop },
  drivers_license_number: { category: "personal_identifier", label: "driver's licence number", sensitivity: "high", recommendation: drop },
  uk_national_insurance_number: { category: "personal_identifier", label: "UK National Insurance number", sensitivity: "high", recommendation: drop },
  nhs_number: { category: "health", label: "NHS number", sensitivity: "high", recommendation: drop },
  canadian_social_insurance_number: { category: "personal_identifier", label: "Canadian social insurance number", sensitivity: "high", recommendation: drop },
  national_id_number: { category: "personal_identifier", label: "national identity number", sensitivity: "high", recommendation: drop },
  date_of_birth: { category: "personal_identifier", label: "date of birth", sensitivity: "medium", recommendation: "Generalise to birth year or an age band before training; exact birth dates single people out together with a postcode." },
  ip_address: { category: "personal_identifier", label: "IP address", sensitivity: "low", recommendation: "Truncate to the network (/24 for IPv4, /48 for IPv6) or drop it before training." },
  mac_address: { category: "personal_identifier", label: "MAC address", sensitivity: "low", recommendation: pseudonymise },
  url: { category: "personal_identifier", label: "URL", sensitivity: "low", recommendation: "Check whether the URLs name people (profiles, personal pages); if they do, keep only the host or drop the column." },
  username: { category: "personal_identifier", label: "user name", sensitivity: "medium", recommendation: pseudonymise },
  credit_card_number: { category: "financial", label: "payment card number", sensitivity: "high", recommendation: `${drop} Card numbers fall under PCI DSS; keep at most the issuer.` },
  iban: { category: "financial", label: "IBAN", sensitivity: "high", recommendation: `${drop} Keep at most the country code.` },
  bank_routing_number: { category: "financial", label: "ABA routing number", sensitivity: "medium", recommendation: "Routing numbers name banks, not people, but reveal where someone banks: drop or generalise to the bank." },
  bank_account_number: { category: "financial", label: "bank account number", sensitivity: "high", recommendation: drop },
  crypto_wallet_address: { category: "financial", label: "crypto wallet address", sensitivity: "high", recommendation: `${drop} Public ledgers link an address to every payment it made.` },
  medical_record_number: { category: "health", label: "medical record number", sensitivity: "high", recommendation: drop },
  icd10_code: { category: "health", label: "ICD-10 diagnosis code", sensitivity: "medium", recommendation: "Diagnoses are special-category data: keep them only with a legal basis, generalise rare codes to their chapter, and check the evaluation's privacy metrics." },
  npi_number: { category: "health", label: "US National Provider Identifier", sensitivity: "medium", recommendation: "NPIs identify clinicians, not patients, but link records to them: pseudonymise or drop before training." },
  street_address: { category: "location", label: "street address", sensitivity: "medium", recommendation: "Generalise to city or region before training, or drop it; addresses locate people." },
  us_zip_code: { category: "location", label: "US ZIP code", sensitivity: "low", recommendation: "Truncate to the first three digits (HIPAA Safe Harbor) when combined with age, sex or birth date." },
  uk_postcode: { category: "location", label: "UK postcode", sensitivity: "low", recommendation: "Keep only the outward code (the part before the space) when combined with age, sex or birth date." },
  city: { category: "location", label: "city", sensitivity: "low", recommendation: "A city singles people out together with age, sex or a birth date where few rows share it: generalise rare cities to their region or country before training, or keep the column for aggregate use with rare-category protection (cities of fewer than k rows never appear in the output)." },
  geo_coordinates: { category: "location", label: "geographic coordinates", sensitivity: "medium", recommendation: "Round to 2 decimals (~1 km) or snap to a grid before training; precise coordinates locate homes." }
}
