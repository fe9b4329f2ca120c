import type { QualityWarning } from "./DataQuality.ts"
import type { ColumnEvidence } from "./ColumnEvidence.ts"

// Thresholds are conventions, not laws: a reviewer can read every one of them here.
const manyMissingShare = 0.5
const highCardinalityMinimum = 50
const highCardinalityShare = 0.5
const heavySkew = 2
const mixedTypesMinority = 0.01

/** A string column whose values are partly numbers and partly text, each kind holding at least 1 % of them. */
export const mixesTypes = (evidence: ColumnEvidence): boolean =>
  evidence.profile.type === "string" &&
  evidence.numericShare >= mixedTypesMinority && evidence.numericShare <= 1 - mixedTypesMinority

const percent = (share: number) => `${(share * 100).toFixed(1)} %`

export const columnWarnings = (evidence: ColumnEvidence, rowCount: number): ReadonlyArray<QualityWarning> => {
  const { profile, presentCount } = evidence
  const column = profile.name
  const warnings: Array<QualityWarning> = []
  if (rowCount > 0 && presentCount === 0) {
    return [{ kind: "all_missing", column, message: `${column} has no values: every row is missing it.` }]
  }
  if (rowCount > 0 && profile.missing_count / rowCount > manyMissingShare) {
    const share = percent(profile.missing_count / rowCount)
    warnings.push({ kind: "many_missing", column, message: `${column} is missing in ${share} of rows.` })
  }
  if (profile.unique_count === 1) {
    warnings.push({ kind: "constant", column, message: `${column} holds a single value; it carries no information.` })
  }
  if (profile.likely_identifier) {
    warnings.push({
      kind: "likely_identifier",
      column,
      message: `${column} looks like an identifier (nearly every value distinct); consider excluding or masking it.`
    })
  } else if (
    profile.type === "string" && profile.unique_count >= highCardinalityMinimum &&
    profile.unique_count / presentCount >= highCardinalityShare
  ) {
    warnings.push({
      kind: "high_cardinality",
      column,
      message: `${column} has ${profile.unique_count} distinct values in ${presentCount} rows.`
    })
  }
  // A two-valued column (a 0/1 flag) is skewed whenever its values are unbalanced; that is no transform's business.
  const numeric = profile.type === "integer" || profile.type === "float"
  if (numeric && profile.unique_count > 2 && Math.abs(profile.skewness ?? 0) > heavySkew) {
    warnings.push({
      kind: "heavy_skew",
      column,
      message: `${column} is heavily skewed (skewness ${profile.skewness!.toFixed(2)}); consider a log transform.`
    })
  }
  if (mixesTypes(evidence)) {
    warnings.push({
      kind: "mixed_types",
      column,
      message: `${column} mixes numbers (${percent(evidence.numericShare)}) and text.`
    })
  }
  return warnings
}
