import type { EvaluationResults } from "../../evaluationRun.ts"
import { divergingColour, heatMap } from "../heatMap.ts"
import { section } from "./layout.ts"

const scale = `<div class="scale"><span>−1</span><span class="scale-bar" style="background:linear-gradient(to right,` +
  `${divergingColour(-1)},${divergingColour(0)},${divergingColour(1)})"></span><span>+1</span></div>`

/** The real and synthetic Pearson matrices and their difference (synthetic − real), as heat maps side by side. */
export const correlationsSection = (results: EvaluationResults): string => {
  const { columns, real, synthetic } = results.correlations
  if (columns.length < 2) {
    return section("correlations", "Correlations", `<p class="muted">Fewer than two numeric columns: no correlations to compare.</p>`)
  }
  const difference = real.map((row, i) => row.map((value, j) => {
    const other = synthetic[i]![j]!
    return value === null || other === null ? null : other - value
  }))
  const panel = (title: string, cells: ReadonlyArray<ReadonlyArray<number | null>>) =>
    `<figure class="matrix"><figcaption><h3>${title}</h3></figcaption>${heatMap({ title, columns, cells })}</figure>`
  return section(
    "correlations",
    "Correlations",
    `<p class="muted">Pearson correlation of the numeric columns (dates as numbers). The difference is synthetic − real: white is a perfect match.</p>` +
      scale + `<div class="matrices">${panel("Real", real)}${panel("Synthetic", synthetic)}${panel("Difference", difference)}</div>`
  )
}
