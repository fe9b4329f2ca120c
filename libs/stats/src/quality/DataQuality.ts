export type QualityLevel = "Excellent" | "Good" | "Fair" | "Poor"

export interface QualityComponent {
  /** 0..1 */
  readonly score: number
  /** How the score was computed, for people reading the profile. */
  readonly description: string
}

export type WarningKind =
  | "all_missing"
  | "many_missing"
  | "constant"
  | "high_cardinality"
  | "likely_identifier"
  | "heavy_skew"
  | "mixed_types"
  | "duplicate_rows"

export interface QualityWarning {
  readonly kind: WarningKind
  /** Absent for warnings about the whole table. */
  readonly column?: string
  readonly message: string
}

export interface DataQuality {
  /** Mean of the four component scores. */
  readonly score: number
  readonly level: QualityLevel
  readonly components: {
    readonly completeness: QualityComponent
    readonly consistency: QualityComponent
    readonly accuracy: QualityComponent
    readonly uniqueness: QualityComponent
  }
  readonly warnings: ReadonlyArray<QualityWarning>
}

/** The spec's bands: Excellent from 0.9, Good from 0.7, Fair from 0.5, else Poor. */
export const qualityLevel = (score: number): QualityLevel =>
  score >= 0.9 ? "Excellent" : score >= 0.7 ? "Good" : score >= 0.5 ? "Fair" : "Poor"
