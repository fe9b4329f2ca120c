import type { EvaluationResults } from "../../evaluationRun.ts"
import { escapeHtml } from "../escapeHtml.ts"
import { percent } from "../format.ts"
import { meter, section, stat, table } from "./layout.ts"

/** Validity (values within the real bounds, known categories) and structure (the same columns and types). */
export const diagnosticSection = (results: EvaluationResults): string => {
  const { dataStructure, dataValidity } = results.diagnostic.properties
  const stats = `<div class="stats">${stat("Diagnostic score", percent(results.diagnostic.score))}` +
    `${stat("Data validity", percent(dataValidity.score))}${stat("Data structure", percent(dataStructure.score))}</div>`
  const validity = table(
    ["Column", "Metric", "Score", "Invalid synthetic values"],
    dataValidity.details.map((detail) => [
      escapeHtml(detail.column),
      escapeHtml(detail.metric),
      meter(detail.score, percent(detail.score)),
      detail.metric === "BoundaryAdherence"
        ? (detail.outside === 0 ? "none" : `${detail.outside} outside the real range`)
        : (detail.invalid === 0 ? "none" : `${detail.invalid} in ${detail.unknownCategories.length} categories the real data lacks`)
    ])
  )
  const { extraColumns, missingColumns, typeMismatches } = dataStructure.details
  const problems = [
    ...missingColumns.map((column) => `missing column ${column}`),
    ...extraColumns.map((column) => `extra column ${column}`),
    ...typeMismatches.map((mismatch) => `${mismatch.column}: ${mismatch.real} in the real data, ${mismatch.synthetic} in the synthetic`)
  ]
  const structure = problems.length === 0
    ? `<p class="muted">Same columns with the same types in both tables.</p>`
    : `<ul>${problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join("")}</ul>`
  return section("diagnostic", "Diagnostic", stats + validity + `<h3>Structure</h3>` + structure)
}
