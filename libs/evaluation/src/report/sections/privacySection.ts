import type { EvaluationResults } from "../../evaluationRun.ts"
import { escapeHtml } from "../escapeHtml.ts"
import { decimal, percent } from "../format.ts"
import { levelBadge, meter, section, table } from "./layout.ts"

/** How far the synthetic rows stay from the real ones, and how well an attacker could tell training rows apart. */
export const privacySection = (results: EvaluationResults): string => {
  const privacy = results.privacy
  const rows: Array<ReadonlyArray<string>> = [
    [
      "DCR baseline protection",
      meter(privacy.dcrBaselineProtection.score, percent(privacy.dcrBaselineProtection.score)),
      `median distance to the closest real row ${decimal(privacy.dcrBaselineProtection.medianDcrSynthetic)} ` +
        `(random rows: ${decimal(privacy.dcrBaselineProtection.medianDcrRandom)})`
    ],
    ...(privacy.dcrOverfittingProtection === null ? [] : [[
      "DCR overfitting protection",
      meter(privacy.dcrOverfittingProtection.score, percent(privacy.dcrOverfittingProtection.score)),
      `${percent(privacy.dcrOverfittingProtection.closerToTraining)} of synthetic rows closer to training than to holdout rows`
    ]]),
    [
      "New row synthesis",
      meter(privacy.newRowSynthesis.score, percent(privacy.newRowSynthesis.score)),
      `${privacy.newRowSynthesis.matchedRows} near copies (tolerance ${percent(privacy.matchTolerance)})`
    ],
    ["Exact copies", percent(privacy.exactCopies.share, 2), `${privacy.exactCopies.rows} synthetic rows identical to a real row`],
    [
      "Nearest-neighbour distance ratio",
      `median ${decimal(privacy.nearestNeighbourRatio.median)}`,
      `mean ${decimal(privacy.nearestNeighbourRatio.mean)}; ${percent(privacy.nearestNeighbourRatio.shareBelowHalf)} of rows below 0.5`
    ],
    ...(privacy.membershipInference === null ? [] : [[
      "Membership inference AUC",
      decimal(privacy.membershipInference.auc),
      `${privacy.membershipInference.members} training against ${privacy.membershipInference.nonMembers} holdout rows (0.5: no better than a coin toss)`
    ]])
  ]
  return section(
    "privacy",
    "Privacy",
    `<div class="privacy-score">Privacy score <strong>${percent(privacy.score)}</strong> ${levelBadge(privacy.level)}</div>` +
      table(["Metric", "Value", "Meaning"], rows.map(([metric, value, meaning]) => [escapeHtml(metric!), value!, escapeHtml(meaning!)]))
  )
}
