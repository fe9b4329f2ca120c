import type { ColumnProfile } from "../Profile.ts"

/** What data quality needs to know about a column beyond its profile. */
export interface ColumnEvidence {
  readonly profile: ColumnProfile
  readonly presentCount: number
  /** Numeric values beyond Tukey's outer fences (0 for other columns). */
  readonly farOutCount: number
  /** Share of non-missing values that read as numbers (string columns; 0 otherwise). */
  readonly numericShare: number
}
