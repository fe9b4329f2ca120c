import type { EvaluationResults } from "../../evaluationRun.ts"
import { escapeHtml } from "../escapeHtml.ts"
import { decimal, percent } from "../format.ts"
import { meter, section, table } from "./layout.ts"

/** SDMetrics' Quality Report in detail: each column's shape score and each column pair's trend score. */
export const qualitySection = (results: EvaluationResults): string => {
  const statistics = new Map(results.statistical.columns.map((column) => [column.column, column]))
  const shapes = table(
    ["Column", "Metric", "Score", "Missing (real / synthetic)"],
    results.statistical.quality.properties.column_shapes.details.map((detail) => {
      const column = statistics.get(detail.column)
      return [
        escapeHtml(detail.column),
        escapeHtml(detail.metric),
        meter(detail.score, percent(detail.score)),
        column === undefined ? "—" : `${percent(column.realMissingShare)} / ${percent(column.syntheticMissingShare)}`
      ]
    })
  )
  const pairs = table(
    ["Columns", "Metric", "Real", "Synthetic", "Score"],
    results.statistical.pairs.map((pair) => [
      `${escapeHtml(pair.column_1)} × ${escapeHtml(pair.column_2)}`,
      escapeHtml(pair.metric),
      decimal(pair.metric === "CorrelationSimilarity" ? pair.real_correlation : pair.real_association, 3),
      decimal(pair.synthetic_correlation, 3),
      meter(pair.score, percent(pair.score))
    ])
  )
  return section(
    "quality",
    "Column shapes and pair trends",
    `<h3>Column shapes</h3>${shapes}<h3>Column pair trends</h3>` +
      `<p class="muted">Correlation similarity (two numeric columns, Pearson r) or contingency similarity (otherwise; real: Cramér's V).</p>${pairs}`
  )
}
