import type { Histogram } from "./numeric/histogram.ts"
import type { Outliers } from "./numeric/outliers.ts"
import type { ColumnType } from "./ProfileInput.ts"
import type { DataQuality } from "./quality/DataQuality.ts"

export type { Histogram } from "./numeric/histogram.ts"
export type { Outliers } from "./numeric/outliers.ts"

// Field names are snake_case: these objects go on the wire as they are. A statistic that does not exist for the
// data (the mean of no values, the std of one, a correlation with a constant column) is null, never NaN.

interface ColumnProfileBase {
  readonly name: string
  readonly type: ColumnType
  /** missing_count > 0 */
  readonly nullable: boolean
  readonly missing_count: number
  /** Distinct non-missing values. */
  readonly unique_count: number
  /**
   * The column looks like an identifier: strings nearly all distinct (≥ 95 % of non-missing values), or integers
   * forming a run of consecutive distinct values. The caller decides whether to mask its most_frequent.
   */
  readonly likely_identifier: boolean
}

export interface Quantiles {
  readonly p01: number
  readonly p05: number
  readonly p25: number
  readonly p50: number
  readonly p75: number
  readonly p95: number
  readonly p99: number
}

export interface NumericColumnProfile extends ColumnProfileBase {
  readonly type: "integer" | "float"
  readonly min: number | null
  readonly max: number | null
  readonly mean: number | null
  /** Sample standard deviation (ddof = 1). */
  readonly std: number | null
  readonly median: number | null
  readonly quantiles: Quantiles | null
  readonly skewness: number | null
  /** Excess kurtosis (0 for a normal distribution). */
  readonly kurtosis: number | null
  readonly zeros_count: number
  readonly histogram: Histogram | null
  readonly outliers: Outliers | null
}

export interface StringLengths {
  readonly min: number
  readonly mean: number
  readonly max: number
}

export interface CategoricalColumnProfile extends ColumnProfileBase {
  readonly type: "string" | "boolean"
  /** The most frequent values, by count descending, then value ascending (UTF-16 code unit order). */
  readonly most_frequent: ReadonlyArray<string>
  /** Counts aligned with most_frequent. */
  readonly frequencies: ReadonlyArray<number>
  /** String lengths in code points over non-missing values; strings only, null when all are missing. */
  readonly lengths?: StringLengths | null
}

export interface TemporalColumnProfile extends ColumnProfileBase {
  readonly type: "date" | "datetime"
  /** ISO 8601: `YYYY-MM-DD` for dates, `YYYY-MM-DDTHH:mm:ss.sssZ` for datetimes. */
  readonly min: string | null
  readonly max: string | null
  /** (max − min) in days. */
  readonly range_days: number | null
}

export type ColumnProfile = NumericColumnProfile | CategoricalColumnProfile | TemporalColumnProfile

export interface Association {
  /** Cramér's V for two categorical columns; correlation ratio η (numeric given categorical) for mixed pairs. */
  readonly method: "cramers_v" | "correlation_ratio"
  readonly value: number | null
}

/** The statistics of a Profile resource; the service adds dataset_id. */
export interface Profile {
  readonly row_count: number
  readonly column_count: number
  readonly columns: ReadonlyArray<ColumnProfile>
  /** `<a>-<b>` for numeric columns a before b: Pearson r over rows where both are present. */
  readonly correlations: Readonly<Record<string, number | null>>
  /** `<a>-<b>` for categorical pairs and numeric–categorical pairs, a before b in column order. */
  readonly associations: Readonly<Record<string, Association>>
  /** Rows equal to an earlier row on every column, missingness included (pandas' duplicated().sum()). */
  readonly duplicate_row_count: number
  readonly data_quality_score: number
  readonly data_quality: DataQuality
}
