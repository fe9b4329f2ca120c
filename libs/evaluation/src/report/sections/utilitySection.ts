import type { EvaluationResults } from "../../evaluationRun.ts"
import type { MeanStd } from "../../utility/mlUtility.ts"
import { escapeHtml } from "../escapeHtml.ts"
import { decimal, percent } from "../format.ts"
import { section, table } from "./layout.ts"

const meanStd = (value: MeanStd | undefined): string =>
  value === undefined || value.mean === null ? "—" : `${decimal(value.mean)} ± ${decimal(value.std)}`

/** TRTR against TSTR per algorithm and metric (cross-validated mean ± std, and on the holdout); absent when not run. */
export const utilitySection = (results: EvaluationResults): string => {
  const utility = results.mlUtility
  if (utility === null) return ""
  if ("skipped" in utility) return section("utility", "ML utility", `<p class="muted">Skipped: ${escapeHtml(utility.skipped)}</p>`)
  const rows = utility.algorithms.flatMap((algorithm) =>
    (Object.keys(algorithm.utilityRatios) as Array<keyof typeof algorithm.utilityRatios>).map((metric) => [
      escapeHtml(algorithm.algorithm),
      escapeHtml(metric),
      meanStd(algorithm.crossValidation.trtr[metric]),
      meanStd(algorithm.crossValidation.tstr[metric]),
      `${decimal(algorithm.holdout.trtr[metric])} / ${decimal(algorithm.holdout.tstr[metric])}`,
      percent(algorithm.utilityRatios[metric] ?? null)
    ])
  )
  const note = `<p class="muted">${escapeHtml(utility.task)} of <strong>${escapeHtml(utility.targetColumn)}</strong> from ` +
    `${utility.featureCount} features; ${utility.realRows} real and ${utility.syntheticRows} synthetic rows. ` +
    `TRTR: trained on real, TSTR: trained on synthetic, both tested on real rows.</p>`
  return section(
    "utility",
    "ML utility",
    note + table(["Algorithm", "Metric", "TRTR (cv mean ± std)", "TSTR (cv mean ± std)", "Holdout TRTR / TSTR", "TSTR ÷ TRTR"], rows)
  )
}
