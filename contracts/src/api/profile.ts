import { Schema } from "effect"
import { DatasetId } from "../ids.ts"

/**
 * The Profile resource. The spec's fields keep their names (dataset_id, row_count, column_count, columns[] with name,
 * type, nullable, unique_count, min, max, mean, std, missing_count, most_frequent, frequencies; correlations;
 * data_quality_score); everything else is an addition documented here. A statistic that does not exist for the data
 * (the std of one value, a correlation with a constant column) is null, never NaN.
 */

const Count = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0)))
const Share = Schema.Finite.pipe(Schema.check(Schema.isBetween({ minimum: 0, maximum: 1 })))
const MaybeNumber = Schema.NullOr(Schema.Finite)

const columnBase = {
  name: Schema.String,
  nullable: Schema.Boolean.annotate({ description: "true when the column has missing values (missing_count > 0)" }),
  missing_count: Count,
  unique_count: Count.annotate({ description: "distinct non-missing values" }),
  likely_identifier: Schema.Boolean.annotate({
    description:
      "the column looks like an identifier: strings nearly all distinct (at least 95 % of non-missing values), or " +
      "integers forming a run of consecutive distinct values"
  })
}

export const Quantiles = Schema.Struct({
  p01: Schema.Finite,
  p05: Schema.Finite,
  p25: Schema.Finite,
  p50: Schema.Finite,
  p75: Schema.Finite,
  p95: Schema.Finite,
  p99: Schema.Finite
}).annotate({ identifier: "Quantiles", description: "linear interpolation between order statistics (numpy's default)" })

export const Histogram = Schema.Struct({
  bin_edges: Schema.Array(Schema.Finite),
  counts: Schema.Array(Count)
}).annotate({
  identifier: "Histogram",
  description:
    "equal-width bins (Freedman–Diaconis, Sturges when the IQR is 0, at most 50); counts[i] counts values in " +
    "[bin_edges[i], bin_edges[i+1]), the last bin closed"
})

export const Outliers = Schema.Struct({
  lower_bound: Schema.Finite.annotate({ description: "Q1 − 1.5·IQR" }),
  upper_bound: Schema.Finite.annotate({ description: "Q3 + 1.5·IQR" }),
  count: Count,
  share: Share.annotate({ description: "count / non-missing values" }),
  sample_row_indices: Schema.Array(Count).annotate({ description: "the first row indices (0-based) holding an outlier" })
}).annotate({ identifier: "Outliers", description: "IQR (Tukey) outliers" })

export const NumericColumnProfile = Schema.Struct({
  ...columnBase,
  type: Schema.Literals(["integer", "float"]),
  min: MaybeNumber,
  max: MaybeNumber,
  mean: MaybeNumber,
  std: MaybeNumber.annotate({ description: "sample standard deviation (ddof = 1)" }),
  median: MaybeNumber,
  quantiles: Schema.NullOr(Quantiles),
  skewness: MaybeNumber,
  kurtosis: MaybeNumber.annotate({ description: "excess kurtosis (0 for a normal distribution)" }),
  zeros_count: Count,
  histogram: Schema.NullOr(Histogram),
  outliers: Schema.NullOr(Outliers)
}).annotate({ identifier: "NumericColumnProfile" })

export const StringLengths = Schema.Struct({
  min: Schema.Finite,
  mean: Schema.Finite,
  max: Schema.Finite
}).annotate({ identifier: "StringLengths", description: "lengths in code points of the non-missing values" })

export const maskedValue = "***"

export const CategoricalColumnProfile = Schema.Struct({
  ...columnBase,
  type: Schema.Literals(["string", "boolean"]),
  most_frequent: Schema.Array(Schema.String).annotate({
    description:
      "the top 10 values by count, then value; masked (first and last character kept around `***`, or `***` alone " +
      "for values shorter than 5 characters) when most_frequent_masked is true"
  }),
  frequencies: Schema.Array(Count).annotate({ description: "counts aligned with most_frequent" }),
  most_frequent_masked: Schema.Boolean.annotate({
    description:
      "true when the column looks like an identifier or its name denotes personal data (email, phone, name, address, " +
      "ssn, birth date, …): its values are masked, its counts are exact"
  }),
  lengths: Schema.optional(Schema.NullOr(StringLengths))
}).annotate({ identifier: "CategoricalColumnProfile" })

export const TemporalColumnProfile = Schema.Struct({
  ...columnBase,
  type: Schema.Literals(["date", "datetime"]),
  min: Schema.NullOr(Schema.String).annotate({ description: "ISO 8601 (YYYY-MM-DD for dates)" }),
  max: Schema.NullOr(Schema.String).annotate({ description: "ISO 8601 (YYYY-MM-DD for dates)" }),
  range_days: MaybeNumber.annotate({ description: "(max − min) in days" })
}).annotate({ identifier: "TemporalColumnProfile" })

export const ColumnProfile = Schema.Union([NumericColumnProfile, CategoricalColumnProfile, TemporalColumnProfile]).annotate({
  identifier: "ColumnProfile",
  description:
    "by type: integer and float columns carry min, max, mean, std and distributions; string and boolean columns " +
    "most_frequent and frequencies; date and datetime columns their range"
})

export const Association = Schema.Struct({
  method: Schema.Literals(["cramers_v", "correlation_ratio"]),
  value: MaybeNumber
}).annotate({
  identifier: "Association",
  description: "Cramér's V for two categorical columns; the correlation ratio η (numeric given categorical) for mixed pairs"
})

export const QualityComponent = Schema.Struct({
  score: Share,
  description: Schema.String.annotate({ description: "how the score was computed" })
}).annotate({ identifier: "QualityComponent" })

export const QualityLevel = Schema.Literals(["Excellent", "Good", "Fair", "Poor"]).annotate({
  description: "Excellent from 0.9, Good from 0.7, Fair from 0.5, else Poor"
})

export const QualityWarning = Schema.Struct({
  kind: Schema.Literals(["all_missing", "many_missing", "constant", "high_cardinality", "likely_identifier", "heavy_skew", "mixed_types", "duplicate_rows"]),
  column: Schema.optional(Schema.String).annotate({ description: "absent for warnings about the whole table" }),
  message: Schema.String
}).annotate({ identifier: "QualityWarning" })

export const DataQuality = Schema.Struct({
  score: Share.annotate({ description: "mean of the four component scores; equals data_quality_score" }),
  level: QualityLevel,
  components: Schema.Struct({
    completeness: QualityComponent,
    consistency: QualityComponent,
    accuracy: QualityComponent,
    uniqueness: QualityComponent
  }),
  warnings: Schema.Array(QualityWarning)
}).annotate({ identifier: "DataQuality" })

export const Profile = Schema.Struct({
  dataset_id: DatasetId,
  row_count: Count,
  column_count: Count,
  columns: Schema.Array(ColumnProfile),
  correlations: Schema.Record(Schema.String, MaybeNumber).annotate({
    description:
      "`<column_a>-<column_b>` for numeric columns a before b: Pearson r over the rows where both are present; null " +
      "when one of them is constant there"
  }),
  associations: Schema.Record(Schema.String, Association).annotate({
    description: "`<column_a>-<column_b>` for categorical pairs and numeric–categorical pairs, a before b in column order"
  }),
  duplicate_row_count: Count.annotate({ description: "rows equal to an earlier row on every column" }),
  data_quality_score: Share,
  data_quality: DataQuality
}).annotate({ identifier: "Profile" })
export type Profile = typeof Profile.Type

/** The answer of POST /datasets/{id}/profile when profiling outlasts the wait: poll GET /datasets/{id}/profile. */
export const ProfilePending = Schema.Struct({
  dataset_id: DatasetId,
  status: Schema.Literal("running")
}).annotate({ identifier: "ProfilePending" })
export type ProfilePending = typeof ProfilePending.Type
