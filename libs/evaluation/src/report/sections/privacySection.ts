import type { EvaluationResults } from "../../evaluationRun.ts"
import { escapeHtml } from "../escapeHtml.ts"
import { decimal, percent } from "../format.ts"
import { levelBadge, meter, section, table } from "./layout.ts"
import { attributeTable, checksTable, disclosureTable, verdictBanner } from "./privacyChecksParts.ts"

const notMeasured = `<p class="muted">Not measured: the generator has no column roles (it was made before they existed).</p>`

/**
 * Whether the output may be shared (the checks and their verdict), then what each check measured: the real values
 * in personal columns, the attribute-inference attack, and the row-level distances and the membership attack.
 */
export const privacySection = (results: EvaluationResults): string => {
  const privacy = results.privacy
  const attack = privacy.membershipInference
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
    [
      "Exact copies",
      percent(privacy.exactCopies.share, 2),
      `${privacy.exactCopies.rows} synthetic rows identical to a training row` +
        (privacy.exactCopies.holdoutShare === null ? "" : ` (held-out rows: ${percent(privacy.exactCopies.holdoutShare, 2)})`)
    ],
    [
      "Nearest-neighbour distance ratio",
      `median ${decimal(privacy.nearestNeighbourRatio.median)}`,
      `mean ${decimal(privacy.nearestNeighbourRatio.mean)}; ${percent(privacy.nearestNeighbourRatio.shareBelowHalf)} of rows below 0.5`
    ],
    attack === null
      ? ["Membership inference AUC", "—", "not run: no real rows the generator never saw"]
      : [
        "Membership inference AUC",
        decimal(attack.auc),
        (attack.interval === null ? "no interval (too few rows)" : `95 % interval ${decimal(attack.interval.low)} to ${decimal(attack.interval.high)} (${attack.interval.method})`) +
          `; ${attack.members} training against ${attack.nonMembers} held-out rows (0.5: no better than a coin toss)`
      ]
  ]
  return section(
    "privacy",
    "Privacy",
    verdictBanner(privacy.verdict) +
      `<h3>Checks</h3>` + checksTable(privacy.verdict) +
      `<h3>Real values in personal columns</h3>` + (privacy.disclosure === null ? notMeasured : disclosureTable(privacy.disclosure)) +
      `<h3>Attribute inference from the quasi-identifiers</h3>` +
      (privacy.attributeInference === null ? notMeasured : attributeTable(privacy.attributeInference)) +
      `<h3>Distances and membership</h3>` +
      `<div class="privacy-score">Privacy score <strong>${percent(privacy.score)}</strong> ${levelBadge(privacy.level)}</div>` +
      table(["Metric", "Value", "Meaning"], rows.map(([metric, value, meaning]) => [escapeHtml(metric!), value!, escapeHtml(meaning!)]))
  )
}
