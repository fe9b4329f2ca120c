/**
 * The vocabulary of sensitive-data scanning, shared by the detectors (patterns/), the column-name analysis
 * (context/), the uniqueness analysis (statistical/), the learned classifier (ai/) and the scan that combines them
 * (scan/). Type names are snake_case as the interface spec shows (`email_address`, `social_security_number`).
 */

/** The spec's four categories. */
export const piiCategories = ["personal_identifier", "financial", "health", "location"] as const
export type PiiCategory = (typeof piiCategories)[number]

export const piiTypes = [
  // personal identifiers
  "person_name",
  "email_address",
  "phone_number",
  "social_security_number",
  "passport_number",
  "drivers_license_number",
  "uk_national_insurance_number",
  "nhs_number",
  "canadian_social_insurance_number",
  "national_id_number",
  "date_of_birth",
  "ip_address",
  "mac_address",
  "url",
  "username",
  // financial
  "credit_card_number",
  "iban",
  "bank_routing_number",
  "bank_account_number",
  "crypto_wallet_address",
  // health
  "medical_record_number",
  "icd10_code",
  "npi_number",
  // location
  "street_address",
  "us_zip_code",
  "uk_postcode",
  "geo_coordinates",
  "city"
] as const
export type PiiType = (typeof piiTypes)[number]

/** How a finding was reached; a finding lists every method that supports it. */
export type PiiMethod = "pattern" | "context" | "statistical" | "ai"

/** Column types of the normalised table (what ingestion inferred). */
export type ColumnKind = "integer" | "float" | "boolean" | "string" | "date" | "datetime"

/**
 * A column as the scan sees it: a bounded, row-aligned sample of its values as text (numbers in plain decimal,
 * dates as ISO 8601 `YYYY-MM-DD`, datetimes as ISO 8601 UTC), null where the value is missing. Every column of one
 * scan has the same number of values, and value i of every column comes from the same row.
 */
export interface ColumnSample {
  readonly name: string
  readonly kind: ColumnKind
  readonly values: ReadonlyArray<string | null>
}

export interface ScanInput {
  /** Rows of the whole dataset; the columns hold a sample of them. */
  readonly rowCount: number
  readonly columns: ReadonlyArray<ColumnSample>
}

/**
 * One value-level detector. `matches` gets a trimmed, non-empty value and must be cheap on values that are clearly
 * something else (prefilter before any checksum). `strength` says how much a match alone proves:
 * `checksum` (Luhn, mod 97, mod 11, ABA...) and `strict_format` (a format no ordinary value has) are held to
 * precision ≥ 0.95 on their own; `loose_format` (a 5-digit ZIP, a date) needs support from context or statistics.
 */
export interface PatternDetector {
  readonly type: PiiType
  readonly strength: "checksum" | "strict_format" | "loose_format"
  readonly matches: (value: string) => boolean
}

/** The learned or remote AI layer's opinion of one column; `type: null` means "not personal data". */
export interface AiColumnVerdict {
  readonly column: string
  readonly type: PiiType | null
  readonly confidence: number
}
