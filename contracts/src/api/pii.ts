import { Schema } from "effect"
import { PiiAiLayerKind, PiiRiskLevel, PiiScanKind } from "../events/dataset.ts"
import { DatasetId, Timestamp } from "../ids.ts"

/**
 * The sensitive-data detection result. The spec's fields keep their names (dataset_id, pii_detected, risk_level,
 * findings[] with column, type, confidence, sample_values, recommendation; overall_risk_assessment with level,
 * description, actions_required); everything else is an addition documented here. Sample values are always masked.
 */

const Count = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))
const Share = Schema.Finite.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 1 })))

export const PiiFinding = Schema.Struct({
  column: Schema.String,
  type: Schema.String.annotate({
    description:
      "snake_case: person_name, email_address, phone_number, social_security_number, passport_number, " +
      "drivers_license_number, uk_national_insurance_number, nhs_number, canadian_social_insurance_number, " +
      "national_id_number, date_of_birth, ip_address, mac_address, url, username, credit_card_number, iban, " +
      "bank_routing_number, bank_account_number, crypto_wallet_address, medical_record_number, icd10_code, " +
      "npi_number, street_address, us_zip_code, uk_postcode, city, geo_coordinates"
  }),
  confidence: Share,
  sample_values: Schema.Array(Schema.String).annotate({
    description: "up to 3 distinct values of the column, masked (j***@e***.com, ***-**-1234): never a raw value"
  }),
  recommendation: Schema.String,
  category: Schema.Literals(["personal_identifier", "financial", "health", "location"]),
  sensitivity: Schema.Literals(["high", "medium", "low"]),
  methods: Schema.Array(Schema.Literals(["pattern", "context", "statistical", "ai"])).annotate({
    description: "the detection methods whose evidence supports the finding"
  }),
  match_share: Schema.NullOr(Share).annotate({
    description: "share of the sampled non-missing values that pass the type's validation; null without a pattern"
  }),
  validation: Schema.NullOr(Schema.Literals(["checksum", "strict_format", "loose_format"])).annotate({
    description:
      "how the values were checked: a check digit (Luhn, mod 97, mod 11, ABA...), a strict format, a loose format " +
      "that needed the column name's support, or null when only the name or the AI layer supports the finding"
  })
}).annotate({ identifier: "PiiFinding" })

export const QuasiIdentifierSet = Schema.Struct({
  columns: Schema.Array(Schema.String),
  k_anonymity: Count.annotate({
    description: "the smallest number of sampled rows sharing one combination of these columns' values"
  }),
  unique_share: Share.annotate({ description: "share of sampled rows whose combination no other sampled row has" })
}).annotate({
  identifier: "QuasiIdentifierSet",
  description:
    "columns that together single out rows though none does alone (dates of birth, postcodes, gender...), estimated " +
    "on the scanned sample"
})

export const OverallRiskAssessment = Schema.Struct({
  level: PiiRiskLevel,
  description: Schema.String,
  actions_required: Schema.Array(Schema.String)
}).annotate({ identifier: "OverallRiskAssessment" })

export const PiiAiLayer = Schema.Struct({
  kind: PiiAiLayerKind.annotate({
    description: "`openai`: the configured OpenAI-compatible model; `local`: the classifier bundled with the service"
  }),
  model: Schema.String.annotate({ description: "the provider's model name, or the local classifier's version" }),
  applied: Schema.Boolean.annotate({
    description: "false when the layer gave no answer (timeout, provider error): the result is the basic scan's"
  })
}).annotate({ identifier: "PiiAiLayer" })

export const PiiDetectionResult = Schema.Struct({
  dataset_id: DatasetId,
  pii_detected: Schema.Boolean,
  risk_level: PiiRiskLevel,
  findings: Schema.Array(PiiFinding),
  overall_risk_assessment: OverallRiskAssessment,
  scan: PiiScanKind,
  quasi_identifiers: Schema.Array(QuasiIdentifierSet),
  identifiers: Schema.Array(Schema.String).annotate({
    description: "columns whose values are (nearly) all distinct: they single out rows by themselves"
  }),
  scanned_rows: Count.annotate({ description: "rows in the scanned sample (evenly spaced over the dataset)" }),
  total_rows: Count,
  ai_layer: Schema.NullOr(PiiAiLayer).annotate({ description: "null for the basic scan" }),
  warnings: Schema.Array(Schema.String),
  requested_at: Timestamp
}).annotate({ identifier: "PiiDetectionResult" })
export type PiiDetectionResult = typeof PiiDetectionResult.Type

/** The answer of a scan request that outlasts the wait: poll GET /datasets/{id}/pii-flags. */
export const PiiScanPending = Schema.Struct({
  dataset_id: DatasetId,
  scan: PiiScanKind,
  status: Schema.Literal("running")
}).annotate({ identifier: "PiiScanPending" })
export type PiiScanPending = typeof PiiScanPending.Type

export const PiiFlags = Schema.Struct({
  dataset_id: DatasetId,
  pii_detected: Schema.Boolean.annotate({ description: "true when either stored scan found personal data" }),
  risk_level: PiiRiskLevel.annotate({ description: "the higher level of the stored scans" }),
  basic: Schema.NullOr(PiiDetectionResult).annotate({ description: "the latest basic scan's result" }),
  enhanced: Schema.NullOr(PiiDetectionResult).annotate({ description: "the latest enhanced scan's result" }),
  running: Schema.Array(PiiScanKind).annotate({ description: "scans requested whose new result is not stored yet" })
}).annotate({ identifier: "PiiFlags" })
export type PiiFlags = typeof PiiFlags.Type
