import type { EvaluatedColumn } from "../columns/evaluatedColumns.ts"
import type { Recommendation } from "./Recommendation.ts"

const named = (columns: ReadonlyArray<EvaluatedColumn>, treatment: EvaluatedColumn["treatment"]) =>
  columns.filter((column) => column.treatment === treatment).map(({ name }) => name)

/**
 * A note on the columns the quality figures leave out, so a score over fewer columns is not read as one over all:
 * faked and hashed columns hold other values than the real ones by design, dropped ones are not in the output.
 */
export const columnTreatmentRecommendations = (columns: ReadonlyArray<EvaluatedColumn> | null): ReadonlyArray<Recommendation> => {
  if (columns === null) return []
  const faked = named(columns, "faked"), hashed = named(columns, "hashed"), dropped = named(columns, "dropped")
  if (faked.length + hashed.length + dropped.length === 0) return []
  const parts = [
    faked.length === 0 ? null : `${faked.join(", ")} (faked: fresh values by design)`,
    hashed.length === 0 ? null : `${hashed.join(", ")} (hashed: keyed pseudonyms of the real values)`,
    dropped.length === 0 ? null : `${dropped.join(", ")} (dropped: not in the output)`
  ].filter((part): part is string => part !== null)
  return [{
    area: "statistical",
    severity: "low",
    columns: [...faked, ...hashed, ...dropped],
    kind: "columns_not_scored",
    detail: parts.join("; "),
    action: "read the scores as scores of the other columns",
    message: `the quality, validity and ML utility figures leave out the columns ${parts.join("; ")}; the privacy checks still look at them.`
  }]
}
