import type { Sensitivity } from "../catalog.ts"
import type { QuasiIdentifierSet } from "../statistical/quasiIdentifiers.ts"
import type { PatternDetector, PiiCategory, PiiMethod, PiiType } from "../types.ts"

export type RiskLevel = "low" | "medium" | "high"

export interface PiiFinding {
  readonly column: string
  readonly type: PiiType
  readonly confidence: number
  /** Masked, at most 3, distinct. */
  readonly sample_values: ReadonlyArray<string>
  readonly recommendation: string
  readonly category: PiiCategory
  readonly sensitivity: Sensitivity
  readonly methods: ReadonlyArray<PiiMethod>
  /** Share of the column's sampled values that pass the type's best detector; null when no detector applies. */
  readonly match_share: number | null
  /** How the values were checked: a checksum, a strict format, a loose format, or not at all (name or AI only). */
  readonly validation: PatternDetector["strength"] | null
}

export interface OverallRiskAssessment {
  readonly level: RiskLevel
  readonly description: string
  readonly actions_required: ReadonlyArray<string>
}

/** The result of a scan: the spec's fields (without dataset_id, which the service adds) and the documented extras. */
export interface PiiScan {
  readonly pii_detected: boolean
  readonly risk_level: RiskLevel
  readonly findings: ReadonlyArray<PiiFinding>
  readonly overall_risk_assessment: OverallRiskAssessment
  readonly quasi_identifiers: ReadonlyArray<QuasiIdentifierSet>
  /** Columns whose values single out rows by themselves (near-unique text or integers). */
  readonly identifiers: ReadonlyArray<string>
  readonly scanned_rows: number
  readonly total_rows: number
}
