import type { PrivacyReport } from "../privacy/privacyReport.ts"
import { figure, percent, type Recommendation } from "./Recommendation.ts"

/** DCR baseline protection below this: synthetic rows sit clearly closer to real ones than chance does. */
const BASELINE_WARNING = 0.5
/** More than this share of synthetic rows closer to the training rows than to the holdout. */
const OVERFITTING_WARNING = 0.6
/** Membership-inference AUC above this. */
const ATTACK_WARNING = 0.6

/** Recommendations from the privacy metrics: copies, closeness to the real rows, memorisation. */
export const privacyRecommendations = (report: PrivacyReport): ReadonlyArray<Recommendation> => {
  const found: Array<Recommendation> = []
  const advice = "train for fewer epochs or with differential privacy (a target epsilon)"
  if (report.exactCopies.rows > 0) {
    found.push({
      area: "privacy",
      severity: "high",
      columns: [],
      message: `${percent(report.exactCopies.share)} of synthetic rows (${report.exactCopies.rows}) copy a real row exactly — remove them before sharing, and ${advice}.`
    })
  }
  const nearCopies = report.newRowSynthesis.matchedRows - report.exactCopies.rows
  if (nearCopies > 0) {
    found.push({
      area: "privacy",
      severity: "medium",
      columns: [],
      message: `${percent(nearCopies / (report.newRowSynthesis.newRows + report.newRowSynthesis.matchedRows))} of synthetic rows (${nearCopies}) nearly copy a real row (every category equal, every number within ${percent(report.matchTolerance)}) — review or drop them, and ${advice}.`
    })
  }
  const baseline = report.dcrBaselineProtection.score
  // On dense data any faithful generator lands closer to the real rows than uniform random rows do; with a holdout,
  // the overfitting test below is the fairer judge, so the baseline speaks only without one.
  if (baseline !== null && baseline < BASELINE_WARNING && report.dcrOverfittingProtection === null) {
    found.push({
      area: "privacy",
      severity: "medium",
      columns: [],
      message: `synthetic rows lie closer to real rows than random rows do (DCR baseline protection ${figure(baseline)}: median distance ${figure(report.dcrBaselineProtection.medianDcrSynthetic)} vs ${figure(report.dcrBaselineProtection.medianDcrRandom)}) — evaluate with a holdout to tell memorisation from fidelity, and if it is memorisation, ${advice}.`
    })
  }
  const overfitting = report.dcrOverfittingProtection
  if (overfitting !== null && overfitting.closerToTraining > OVERFITTING_WARNING) {
    found.push({
      area: "privacy",
      severity: "high",
      columns: [],
      message: `${percent(overfitting.closerToTraining)} of synthetic rows are closer to the training rows than to unseen holdout rows — the generator memorises its training data; ${advice}.`
    })
  }
  const attack = report.membershipInference
  if (attack !== null && attack.auc > ATTACK_WARNING) {
    found.push({
      area: "privacy",
      severity: attack.auc > 0.75 ? "high" : "medium",
      columns: [],
      message: `a distance-based membership-inference attack tells training rows from holdout rows with AUC ${figure(attack.auc)} (0.5 is chance) — ${advice}.`
    })
  }
  return found
}
