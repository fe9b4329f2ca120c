import type { ValueUnit } from "../diagnostic/comparableValues.ts"
import type { DiagnosticReport } from "../diagnostic/diagnosticReport.ts"
import { percent, quoted, type Recommendation } from "./Recommendation.ts"

/** A bound as the user wrote it: a number, an ISO date or an ISO datetime. */
const bound = (value: number | null, unit: ValueUnit): string => {
  if (value === null) return "?"
  if (unit === "days") return new Date(value * 86_400_000).toISOString().slice(0, 10)
  if (unit === "milliseconds") return new Date(value).toISOString()
  return String(+value.toPrecision(6))
}

/** Recommendations from the Diagnostic Report: values outside what the real data allows, and structural drift. */
export const diagnosticRecommendations = (report: DiagnosticReport): ReadonlyArray<Recommendation> => {
  const found: Array<Recommendation> = []
  for (const detail of report.properties.dataValidity.details) {
    if (detail.score === null || detail.score >= 1) continue
    const share = percent(1 - detail.score)
    const severity = detail.score < 0.9 ? "high" : "medium"
    if (detail.metric === "BoundaryAdherence") {
      const outside = `${share} of synthetic values (${detail.outside}) lie outside the real range [${bound(detail.realMin, detail.unit)}, ${bound(detail.realMax, detail.unit)}]`
      const action = "clamp generated values to the real minimum and maximum (enforce min/max values) or drop those rows"
      found.push({
        area: "diagnostic",
        severity,
        columns: [detail.column],
        kind: "out_of_range",
        detail: outside,
        action,
        message: `column ${detail.column}: ${outside} — ${action}.`
      })
    } else {
      const which = detail.unknownCategories.length > 0 ? ` (${quoted(detail.unknownCategories)})` : " (missing values the real column never has)"
      const unknown = `${share} of synthetic values are not real categories${which}`
      found.push({
        area: "diagnostic",
        severity,
        columns: [detail.column],
        kind: "unknown_categories",
        detail: unknown,
        action: "restrict each column to its real categories or drop those rows",
        message: `column ${detail.column}: ${unknown} — restrict the column to the real categories or drop those rows.`
      })
    }
  }
  const structure = report.properties.dataStructure.details
  if (structure.missingColumns.length > 0 || structure.extraColumns.length > 0 || structure.typeMismatches.length > 0) {
    const parts = [
      structure.missingColumns.length > 0 ? `missing ${quoted(structure.missingColumns)}` : null,
      structure.extraColumns.length > 0 ? `extra ${quoted(structure.extraColumns)}` : null,
      ...structure.typeMismatches.map(({ column, real, synthetic }) => `"${column}" is ${synthetic} instead of ${real}`)
    ].filter((part): part is string => part !== null)
    const action = "generate with the real table's schema (column names and types) so the synthetic table can replace it"
    found.push({
      area: "diagnostic",
      severity: "high",
      columns: [...structure.missingColumns, ...structure.extraColumns, ...structure.typeMismatches.map(({ column }) => column)],
      kind: "table_structure",
      detail: parts.join("; "),
      action,
      message: `table structure: ${parts.join("; ")} — ${action}.`
    })
  }
  return found
}
