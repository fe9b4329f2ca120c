export { profileInputFromArrow, UnsupportedArrowField } from "./arrow/profileInputFromArrow.ts"
export { profile } from "./computeProfile.ts"
export type {
  Association,
  CategoricalColumnProfile,
  ColumnProfile,
  Histogram,
  NumericColumnProfile,
  Outliers,
  Profile,
  Quantiles,
  StringLengths,
  TemporalColumnProfile
} from "./Profile.ts"
export type {
  CategoricalColumn,
  ColumnType,
  NumericColumn,
  ProfileColumn,
  ProfileInput,
  TemporalColumn
} from "./ProfileInput.ts"
export type { ProfileOptions } from "./ProfileOptions.ts"
export type {
  DataQuality,
  QualityComponent,
  QualityLevel,
  QualityWarning,
  WarningKind
} from "./quality/DataQuality.ts"
export { qualityLevel } from "./quality/DataQuality.ts"
export { twoSampleKsStatistic } from "./numeric/twoSampleKs.ts"
export { meanAndSquaredDeviations } from "./numeric/squaredDeviations.ts"
