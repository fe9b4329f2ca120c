import type { ResolvedProfileOptions } from "../ProfileOptions.ts"
import type { ColumnEvidence } from "./ColumnEvidence.ts"
import type { DataQuality, QualityWarning } from "./DataQuality.ts"
import { qualityLevel } from "./DataQuality.ts"
import { columnWarnings, mixesTypes } from "./warnings.ts"

const clamp01 = (value: number) => Math.min(1, Math.max(0, value))
const mean = (values: ReadonlyArray<number>) =>
  values.length === 0 ? 1 : values.reduce((sum, value) => sum + value, 0) / values.length

/**
 * A column's consistency: the caller's ingest evidence when given (the share of values that parsed as the type
 * without standardising); else, for a string column mixing numbers and text, the share of the majority kind;
 * else 1, since a typed column's values all parsed as its type.
 */
const columnConsistency = (evidence: ColumnEvidence, options: ResolvedProfileOptions): number => {
  const given = options.consistency[evidence.profile.name]
  if (given !== undefined) return clamp01(given)
  return mixesTypes(evidence) ? Math.max(evidence.numericShare, 1 - evidence.numericShare) : 1
}

export const dataQuality = (
  evidence: ReadonlyArray<ColumnEvidence>,
  rowCount: number,
  duplicateRowCount: number,
  options: ResolvedProfileOptions
): DataQuality => {
  const cells = rowCount * evidence.length
  const presentCells = evidence.reduce((sum, column) => sum + column.presentCount, 0)
  const numericValues = evidence
    .filter((column) => column.profile.type === "integer" || column.profile.type === "float")
    .reduce((sum, column) => sum + column.presentCount, 0)
  const farOut = evidence.reduce((sum, column) => sum + column.farOutCount, 0)
  const components = {
    completeness: {
      score: cells === 0 ? 1 : presentCells / cells,
      description: "non-missing cells / all cells"
    },
    consistency: {
      score: mean(evidence.map((column) => columnConsistency(column, options))),
      description: "mean over columns of the share of values that fit the column's type: ingest evidence where " +
        "given, else the majority kind's share in string columns mixing numbers and text, else 1"
    },
    accuracy: {
      score: numericValues === 0 ? 1 : 1 - farOut / numericValues,
      description: "1 − share of numeric values beyond Tukey's outer fences (Q1 − 3·IQR, Q3 + 3·IQR); " +
        "columns whose IQR is 0 count no value as far out; 1 without numeric values"
    },
    uniqueness: {
      score: rowCount === 0 ? 1 : 1 - duplicateRowCount / rowCount,
      description: "1 − duplicate rows / rows"
    }
  }
  const score = clamp01(
    (components.completeness.score + components.consistency.score + components.accuracy.score +
      components.uniqueness.score) / 4
  )
  const tableWarnings: Array<QualityWarning> = duplicateRowCount > 0
    ? [{ kind: "duplicate_rows", message: `${duplicateRowCount} of ${rowCount} rows repeat an earlier row.` }]
    : []
  return {
    score,
    level: qualityLevel(score),
    components,
    warnings: [...tableWarnings, ...evidence.flatMap((column) => columnWarnings(column, rowCount))]
  }
}
