import type { EvaluationResults } from "../../evaluationRun.ts"
import { escapeHtml } from "../escapeHtml.ts"
import { percent } from "../format.ts"
import { levelBadge, stat } from "./layout.ts"

export interface ReportHeader {
  readonly evaluationId: string
  readonly generatorId: string
  readonly generatorType?: string
  readonly createdAt: string
}

const utilityRatio = (results: EvaluationResults): number | null => {
  const utility = results.mlUtility
  if (utility === null || "skipped" in utility) return null
  const ratios = utility.algorithms.map((algorithm) => algorithm.utilityRatio).filter((ratio): ratio is number => ratio !== null)
  return ratios.length === 0 ? null : ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length
}

/** The columns the quality figures leave out, by what the generator did with them (none without roles). */
const notScored = (results: EvaluationResults): ReadonlyArray<readonly [string, string]> => {
  const left = (results.columnTreatments ?? []).filter(({ treatment }) => treatment !== "scored")
  return left.length === 0 ? [] : [["Not scored", left.map(({ name, treatment }) => `${name} (${treatment})`).join(", ")]]
}

/** The page header: what was evaluated, the overall score with its level, each part's headline and the verdict. */
export const summarySection = (header: ReportHeader, results: EvaluationResults): string => {
  const meta = [
    ["Evaluation", header.evaluationId],
    ["Generator", header.generatorType === undefined ? header.generatorId : `${header.generatorId} (${header.generatorType})`],
    ["Created", header.createdAt],
    ["Rows compared", `${results.rows.real} real · ${results.rows.synthetic} synthetic` + (results.rows.holdout === null ? "" : ` · ${results.rows.holdout} holdout`)],
    ...notScored(results)
  ].map(([term, value]) => `<div><dt>${escapeHtml(term!)}</dt><dd>${escapeHtml(value!)}</dd></div>`).join("")
  const ratio = utilityRatio(results)
  const headline = `<div class="headline"><div class="overall"><div class="overall-score">${percent(results.summary.overallScore)}</div>` +
    `<div class="overall-caption">Overall quality ${levelBadge(results.summary.qualityLevel)}</div></div><div class="stats">` +
    stat("Column shapes", percent(results.statistical.quality.properties.column_shapes.score)) +
    stat(
      "Column pair trends",
      percent(results.statistical.quality.properties.column_pair_trends.score),
      results.statistical.quality.properties.column_pair_trends.score === null ? "no strongly related pairs" : ""
    ) +
    stat("Diagnostic", percent(results.diagnostic.score)) +
    stat("Privacy", percent(results.privacy.score), results.privacy.level ?? "") +
    stat("Safe to share", results.privacy.verdict.safeToShare ? "Yes" : "No", results.privacy.verdict.safeToShare ? "every privacy check passed" : `${results.privacy.verdict.failing.length} failed, ${results.privacy.verdict.notRun.length} could not run`) +
    (ratio === null ? "" : stat("ML utility (TSTR ÷ TRTR)", percent(ratio))) +
    `</div></div>`
  return `<header id="summary"><h1>Synthetic data evaluation report</h1><dl class="meta">${meta}</dl>${headline}</header>`
}
